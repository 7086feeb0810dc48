import type { AuditEntry, AuditLogQuery } from '@balcao/contracts';
import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { auditLog } from '../../db/schema/index.js';

export const AUDIT_PAGE_SIZE = 40;

type Filters = Omit<AuditLogQuery, 'pageNumber' | 'companyId'> & { companyId?: number };

function where(f: Filters): SQL | undefined {
  const conds: SQL[] = [];
  if (f.companyId !== undefined) conds.push(eq(auditLog.companyId, f.companyId));
  if (f.entity) conds.push(eq(auditLog.entity, f.entity));
  if (f.action) conds.push(eq(auditLog.action, f.action));
  if (f.userId !== undefined) conds.push(eq(auditLog.userId, Number(f.userId)));
  if (f.from) conds.push(gte(auditLog.createdAt, sql`${f.from}::date`));
  if (f.to) conds.push(lt(auditLog.createdAt, sql`${f.to}::date + 1`));
  return conds.length ? and(...conds) : undefined;
}

/** Newest first; `companyId` undefined only for the super user's platform-wide view. */
export async function auditPage(db: DbOrTx, filters: Filters, pageNumber: number) {
  const condition = where(filters);
  const rows = await db
    .select()
    .from(auditLog)
    .where(condition)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((pageNumber - 1) * AUDIT_PAGE_SIZE);
  const [total] = await db.select({ n: count() }).from(auditLog).where(condition);
  return { rows, count: total?.n ?? 0 };
}

export const presentAuditEntry = (row: typeof auditLog.$inferSelect): AuditEntry => ({
  ...row,
  action: row.action as AuditEntry['action'],
  entity: row.entity as AuditEntry['entity'],
  createdAt: row.createdAt.toISOString(),
});
