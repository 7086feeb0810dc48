import { REDACTED, type AuditAction, type AuditEntity } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import { eq } from 'drizzle-orm';
import { auditLog, users } from '../../db/schema/index.js';

/** Who made the change and from where; `auditSource(req)` builds it from a request. */
export interface AuditSource {
  userId: number | null;
  userName?: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

export interface AuditRecord {
  /** The company the change belongs to (the target company when the super user edits another one). */
  companyId: number;
  entity: AuditEntity;
  action: AuditAction;
  entityId?: string | number | null;
  /** The record before and after the change (absent on create / delete); only changed fields are kept. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  source: AuditSource;
}

/** Field names whose values never reach the log (matched case-insensitively, anywhere in the name). */
const SECRET_FIELD = /password|secret|token|session|apikey|api_key|privatekey|private_key|credential|hash|qrcode|certificate/i;

const redact = (key: string, value: unknown): unknown => (SECRET_FIELD.test(key) && value != null && value !== '' ? REDACTED : value);

const comparable = (value: unknown): string => JSON.stringify(value instanceof Date ? value.toISOString() : (value ?? null));

/** `{ field: { before, after } }` for every field whose value differs; bookkeeping columns left out. */
export function changedFields(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
): Record<string, { before?: unknown; after?: unknown }> {
  const changes: Record<string, { before?: unknown; after?: unknown }> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    if (key === 'updatedAt' || key === 'createdAt' || key === 'tokenVersion') continue;
    const was = before?.[key];
    const now = after?.[key];
    if (before && after && comparable(was) === comparable(now)) continue;
    const change: { before?: unknown; after?: unknown } = {};
    if (before && key in before) change.before = redact(key, was);
    if (after && key in after) change.after = redact(key, now);
    changes[key] = change;
  }
  return changes;
}

/**
 * Appends one entry to the audit log. Pass the open transaction when the change has one,
 * so the entry commits (or rolls back) with it. An update that changed nothing is not recorded.
 */
export async function recordAudit(db: DbOrTx, record: AuditRecord): Promise<void> {
  const changes = changedFields(record.before, record.after);
  if (record.action === 'update' && Object.keys(changes).length === 0) return;
  const { userId } = record.source;
  let userName = record.source.userName ?? null;
  if (userId !== null && userName === null) {
    const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId));
    userName = row?.name ?? null;
  }
  await db.insert(auditLog).values({
    companyId: record.companyId,
    userId,
    userName,
    action: record.action,
    entity: record.entity,
    entityId: record.entityId == null ? null : String(record.entityId),
    changes,
    ip: record.source.ip ?? null,
    userAgent: record.source.userAgent?.slice(0, 300) ?? null,
  });
}

/** The caller (if authenticated) and its address, as the request shows them. */
export function auditSource(req: FastifyRequest, userName?: string | null): AuditSource {
  const agent = req.headers['user-agent'];
  return { userId: req.auth?.id ?? null, userName: userName ?? null, ip: req.ip, userAgent: typeof agent === 'string' ? agent : null };
}
