import { date, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';

/** What the company chose in the checkout's plan editor; it becomes the company's plan once paid. */
export interface CheckoutChoice {
  users: number;
  connections: number;
}

/** One invoice per company per period: the period is named by the due date it pays for (unique per company). */
export const invoices = pgTable(
  'invoices',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    detail: text('detail').notNull(),
    users: integer('users').notNull(),
    connections: integer('connections').notNull(),
    value: numeric('value', { precision: 12, scale: 2 }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    linkInvoice: text('link_invoice'),
    /** The PIX charge's transaction id (provider's or ours for a static code): the webhook finds the invoice by it. */
    txid: text('txid').unique(),
    checkout: jsonb('checkout').$type<CheckoutChoice>(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('invoices_company_due_date_idx').on(t.companyId, t.dueDate), index('invoices_company_id_idx').on(t.companyId, t.id)],
);
