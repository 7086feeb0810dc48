import {
  INVOICE_PAID,
  PLATFORM_COMPANY_ID,
  RENEWAL_MONTHS,
  addMonths,
  customPlanPrice,
  localIsoDate,
  type Recurrence,
  type SubscriptionResponse,
} from '@balcao/contracts';
import { and, eq, ne } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { companies, invoices, plans, type CheckoutChoice } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { recordAudit, type AuditSource } from '../audit/record.js';
import { loadCompany } from '../companies/queries.js';
import { emitToSuperUsers } from '../companies/super-events.js';
import { findInvoice, presentInvoice } from './invoices.js';
import type { PaymentProvider } from './provider.js';

const invoiceNotFound = () => new AppError('ERR_NOT_FOUND', 404, 'invoice not found');

/**
 * `POST /subscription`: prices the plan chosen at checkout (on the server: a client-sent price is ignored),
 * keeps that choice on the invoice and asks the provider for a PIX charge of that amount.
 */
export async function subscribe(
  ctx: AppContext,
  provider: PaymentProvider,
  by: AuthUser,
  choice: CheckoutChoice & { invoiceId: number },
): Promise<SubscriptionResponse> {
  const invoice = await findInvoice(ctx.db, by.companyId, choice.invoiceId);
  if (!invoice) throw invoiceNotFound();
  if (invoice.status === INVOICE_PAID) throw new AppError('ERR_INVOICE_ALREADY_PAID', 409);
  const amount = customPlanPrice(choice.users, choice.connections);
  const charge = await provider.createCharge(invoice, amount);
  const checkout: CheckoutChoice = { users: choice.users, connections: choice.connections };
  const [updated] = await ctx.db
    .update(invoices)
    .set({ ...checkout, checkout, value: amount.toFixed(2), txid: charge.txid })
    .where(and(eq(invoices.id, invoice.id), ne(invoices.status, INVOICE_PAID)))
    .returning({ id: invoices.id });
  if (!updated) throw new AppError('ERR_INVOICE_ALREADY_PAID', 409);
  return { txid: charge.txid, invoiceId: invoice.id, valor: { original: amount.toFixed(2) }, qrcode: { qrcode: charge.brCode }, provider: provider.kind };
}

/** The custom plan of a company (one per company, not public), shaped by what it paid for; flags stay those of its current plan. */
async function customPlanFor(tx: Tx, company: typeof companies.$inferSelect, choice: CheckoutChoice): Promise<number> {
  const [current] = company.planId ? await tx.select().from(plans).where(eq(plans.id, company.planId)) : [];
  const { id: _id, name: _name, createdAt: _c, updatedAt: _u, ...base } = current ?? ({} as Partial<typeof plans.$inferSelect>);
  const fields = { ...base, users: choice.users, connections: choice.connections, amount: customPlanPrice(choice.users, choice.connections).toFixed(2), isPublic: false };
  const [plan] = await tx
    .insert(plans)
    .values({ name: `Personalizado #${company.id}`, ...fields })
    .onConflictDoUpdate({ target: plans.name, set: fields })
    .returning({ id: plans.id });
  if (!plan) throw new AppError('ERR_INTERNAL', 500);
  return plan.id;
}

/**
 * A confirmed payment, at most once per invoice (a replayed webhook finds it paid and changes nothing):
 * the invoice becomes 'Pago', the due date moves one recurrence from the later of today and the current
 * due date (month ends clamped), a plan chosen at checkout becomes the company's, and the company's
 * open sessions hear `company-{id}-payment` CONCLUIDA.
 */
/** What the audit log shows as the author of a payment the provider confirmed. */
const PROVIDER_SOURCE: AuditSource = { userId: null, userName: 'PIX' };

export async function markInvoicePaid(ctx: AppContext, invoiceId: number, source: AuditSource, today = localIsoDate(new Date())): Promise<boolean> {
  const paid = await ctx.db.transaction(async (tx) => {
    const [invoice] = await tx
      .update(invoices)
      .set({ status: INVOICE_PAID, paidAt: new Date() })
      .where(and(eq(invoices.id, invoiceId), ne(invoices.status, INVOICE_PAID)))
      .returning();
    if (!invoice) return undefined;
    const [company] = await tx.select().from(companies).where(eq(companies.id, invoice.companyId)).for('update');
    if (!company) return undefined;
    const changes: Partial<typeof companies.$inferInsert> = {};
    if (company.id !== PLATFORM_COMPANY_ID) {
      const from = company.dueDate && company.dueDate > today ? company.dueDate : today;
      changes.dueDate = addMonths(from, RENEWAL_MONTHS[company.recurrence as Recurrence] ?? 1);
    }
    if (invoice.checkout) changes.planId = await customPlanFor(tx, company, invoice.checkout);
    if (Object.keys(changes).length > 0) await tx.update(companies).set(changes).where(eq(companies.id, company.id));
    // The payment and what it renewed are audited with the change itself (issue 18: payments are administrative changes).
    await recordAudit(tx, { companyId: company.id, entity: 'payment', action: 'create', entityId: invoice.id, after: { invoiceId: invoice.id, value: invoice.value }, source });
    await recordAudit(tx, {
      companyId: company.id,
      entity: 'company',
      action: 'update',
      entityId: company.id,
      before: { dueDate: company.dueDate, planId: company.planId },
      after: { dueDate: changes.dueDate ?? company.dueDate, planId: changes.planId ?? company.planId },
      source,
    });
    return invoice;
  });
  if (!paid) return false;
  const company = await loadCompany(ctx.db, paid.companyId);
  if (!company) return true;
  await ctx.events.publish({
    type: 'company.record',
    companyId: company.id,
    name: 'payment',
    payload: { action: 'CONCLUIDA', company: { id: company.id, dueDate: company.dueDate }, invoice: presentInvoice(paid) },
  });
  await emitToSuperUsers(ctx, 'company', { action: 'update', record: company });
  return true;
}

/** The super user confirms a payment by hand (static PIX: no provider tells us). */
export async function confirmInvoiceByHand(ctx: AppContext, invoiceId: number, source: AuditSource): Promise<void> {
  const [invoice] = await ctx.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice) throw invoiceNotFound();
  if (!(await markInvoicePaid(ctx, invoiceId, source))) throw new AppError('ERR_INVOICE_ALREADY_PAID', 409);
}

/**
 * The provider's payment webhook (`{ pix: [{ txid, … }] }`). Its content is only a hint: each txid is asked
 * back from the provider, and only a charge it reports CONCLUIDA for the invoice's value renews, once.
 */
export async function handlePaymentWebhook(ctx: AppContext, provider: PaymentProvider, txids: string[]): Promise<void> {
  for (const txid of new Set(txids)) {
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.txid, txid));
    if (!invoice || invoice.status === INVOICE_PAID) continue;
    if (await provider.isPaid(txid, Number(invoice.value))) await markInvoicePaid(ctx, invoice.id, PROVIDER_SOURCE);
  }
}
