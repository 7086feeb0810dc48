import { INVOICE_OPEN, INVOICE_PAID, PLATFORM_COMPANY_ID, type Invoice, type PageQuery } from '@balcao/contracts';
import { and, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { containsPattern } from '../../db/search.js';
import { companies, invoices, plans } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { localDatePlusDays } from '../auth/service.js';

export const INVOICES_PAGE_SIZE = 20;
/** An invoice exists this many days before its due date (and at once for a new company or a plan change). */
export const INVOICE_LEAD_DAYS = 10;

type InvoiceRow = typeof invoices.$inferSelect;

/** The one place that shapes an invoice for the API. */
export function presentInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    detail: row.detail,
    users: row.users,
    connections: row.connections,
    dueDate: row.dueDate,
    value: Number(row.value),
    status: row.status,
    linkInvoice: row.linkInvoice,
    companyId: row.companyId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The caller's company's invoices, newest period first, searched by detail or status. */
export async function pageInvoices(db: DbOrTx, companyId: number, { searchParam, pageNumber = 1 }: PageQuery) {
  const term = containsPattern(searchParam);
  const where = and(eq(invoices.companyId, companyId), term ? sql`(${ilike(invoices.detail, term)} or ${ilike(invoices.status, term)})` : undefined);
  const [total] = await db.select({ n: count() }).from(invoices).where(where);
  const rows = await db
    .select()
    .from(invoices)
    .where(where)
    .orderBy(desc(invoices.dueDate), desc(invoices.id))
    .limit(INVOICES_PAGE_SIZE)
    .offset((pageNumber - 1) * INVOICES_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { invoices: rows.map(presentInvoice), count: n, hasMore: n > pageNumber * INVOICES_PAGE_SIZE };
}

export async function findInvoice(db: DbOrTx, companyId: number, id: number): Promise<InvoiceRow | undefined> {
  const [row] = await db.select().from(invoices).where(and(eq(invoices.id, id), eq(invoices.companyId, companyId)));
  return row;
}

/**
 * The invoice of each listed company for the period ending at its current due date, priced from its plan.
 * One per company and period (unique key): a second run, or a concurrent one, adds nothing; an open
 * invoice follows a plan change, a paid one never changes.
 */
async function upsertPeriodInvoices(db: DbOrTx, where: SQL): Promise<void> {
  await db.execute(sql`
    insert into ${invoices} (company_id, detail, users, connections, value, due_date, status)
    select ${companies.id}, ${plans.name}, ${plans.users}, ${plans.connections}, ${plans.amount}, ${companies.dueDate}, ${INVOICE_OPEN}
    from ${companies} join ${plans} on ${plans.id} = ${companies.planId}
    where ${where} and ${companies.id} <> ${PLATFORM_COMPANY_ID} and ${companies.dueDate} is not null
    on conflict (company_id, due_date) do update
      set detail = excluded.detail, users = excluded.users, connections = excluded.connections, value = excluded.value, updated_at = now()
      -- Paid invoices and those a checkout already priced keep their terms.
      where ${invoices.status} <> ${INVOICE_PAID} and ${invoices.checkout} is null`);
}

/** A company was created or changed plan: its invoice for the current period exists at once. */
export async function ensureCompanyInvoice(db: DbOrTx, companyId: number): Promise<void> {
  await upsertPeriodInvoices(db, sql`${companies.id} = ${companyId}`);
}

/** The pg-boss job: every company due within the lead time (or already past due) gets its period's invoice. */
export async function runInvoiceJob(ctx: AppContext, now = new Date()): Promise<void> {
  await upsertPeriodInvoices(ctx.db, sql`${companies.dueDate} <= ${localDatePlusDays(INVOICE_LEAD_DAYS, now)} and ${companies.status}`);
}
