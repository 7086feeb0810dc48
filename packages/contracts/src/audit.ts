import { z } from 'zod';
import { idParam } from './validation.js';

/** What an audit entry is about. */
export const AUDIT_ENTITIES = [
  'user',
  'queue',
  'whatsapp',
  'setting',
  'companySetting',
  'plan',
  'company',
  'branding',
  'invoice',
  'payment',
  'session',
  'twoFactor',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/** What happened to it. `login` / `loginFailed` are on `session`; `enable` / `disable` on `twoFactor`. */
export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'login', 'loginFailed', 'enable', 'disable'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Placeholder stored instead of a secret's value (passwords, tokens, keys). */
export const REDACTED = '[redacted]';

/** `changes`: each changed field with its value before and after (absent on create / delete). */
export const auditEntrySchema = z.object({
  id: z.number(),
  companyId: z.number(),
  userId: z.number().nullable(),
  userName: z.string().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  entity: z.enum(AUDIT_ENTITIES),
  entityId: z.string().nullable(),
  changes: z.record(z.string(), z.object({ before: z.unknown().optional(), after: z.unknown().optional() })),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const isoDate = z.iso.date();

/** `GET /audit-log`: newest first, 40 a page; `companyId` only counts for the super user. */
export const auditLogQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  entity: z.enum(AUDIT_ENTITIES).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  userId: idParam.optional(),
  companyId: idParam.optional(),
  /** Inclusive days, YYYY-MM-DD (server time). */
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export type AuditLogQuery = z.input<typeof auditLogQuery>;

export const auditLogPageSchema = z.object({ entries: z.array(auditEntrySchema), count: z.number(), hasMore: z.boolean() });
export type AuditLogPage = z.infer<typeof auditLogPageSchema>;
