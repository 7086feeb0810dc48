import { z } from 'zod';

/** Spec 3 §9 custom plan price: base 49 BRL a month for 3 users and 3 connections, +11 per added user, +20 per added connection. */
export const CUSTOM_PLAN = { base: 49, perUser: 11, perConnection: 20, minimum: 3, maximum: 1000 } as const;

/** The custom plan's monthly price in reais; below the minimum counts as the minimum (the steppers stop at 3). */
export function customPlanPrice(users: number, connections: number): number {
  const extraUsers = Math.max(0, users - CUSTOM_PLAN.minimum);
  const extraConnections = Math.max(0, connections - CUSTOM_PLAN.minimum);
  return CUSTOM_PLAN.base + extraUsers * CUSTOM_PLAN.perUser + extraConnections * CUSTOM_PLAN.perConnection;
}

/** 'Pago' is the spec's paid status (spec 3 §4 Invoice); anything else is open and payable. */
export const INVOICE_PAID = 'Pago';
export const INVOICE_OPEN = 'Aberto';

export const invoiceSchema = z.object({
  id: z.number(),
  detail: z.string(),
  users: z.number(),
  connections: z.number(),
  dueDate: z.string(),
  value: z.number(),
  status: z.string(),
  linkInvoice: z.string().nullable(),
  companyId: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoicesPageSchema = z.object({ invoices: z.array(invoiceSchema), count: z.number(), hasMore: z.boolean() });
export type InvoicesPage = z.infer<typeof invoicesPageSchema>;

const seat = z.coerce.number().int().min(CUSTOM_PLAN.minimum).max(CUSTOM_PLAN.maximum);

/** The checkout's `plan` field: JSON text holding users, connections, price, queues (spec 3 §3 Checkout form). */
const planText = z
  .string()
  .max(2000)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'expected JSON text' });
      return z.NEVER;
    }
  })
  .pipe(z.object({ users: seat, connections: seat }).loose());

/**
 * `POST /subscription`: the checkout form. Only invoiceId, users and connections decide anything (at the top level,
 * or inside `plan`); the price is recomputed on the server and a client-sent `price` is ignored.
 */
export const subscriptionBody = z
  .object({
    invoiceId: z.coerce.number().int().positive().max(2_147_483_647),
    users: seat.optional(),
    connections: seat.optional(),
    plan: z.union([planText, z.object({ users: seat, connections: seat }).loose()]).optional(),
    price: z.unknown().optional(),
    firstName: z.string().max(200).optional(),
    lastName: z.string().max(200).optional(),
    address2: z.string().max(200).optional(),
    city: z.string().max(100).optional(),
    state: z.string().max(100).optional(),
    zipcode: z.string().max(30).optional(),
    country: z.string().max(100).optional(),
    useAddressForPaymentDetails: z.unknown().optional(),
    nameOnCard: z.string().max(200).optional(),
    cardNumber: z.string().max(30).optional(),
    cvv: z.string().max(10).optional(),
  })
  .transform((body, ctx) => {
    const users = body.users ?? body.plan?.users;
    const connections = body.connections ?? body.plan?.connections;
    if (users === undefined || connections === undefined) {
      ctx.addIssue({ code: 'custom', path: users === undefined ? ['users'] : ['connections'], message: 'Required' });
      return z.NEVER;
    }
    return { invoiceId: body.invoiceId, users, connections };
  });
export type SubscriptionBody = z.input<typeof subscriptionBody>;

/** The PIX charge as the checkout shows it (spec 3 §3 Payment response: `qrcode.qrcode`, `valor.original`). */
export const subscriptionResponse = z.object({
  txid: z.string(),
  invoiceId: z.number(),
  valor: z.object({ original: z.string() }),
  qrcode: z.object({ qrcode: z.string() }),
  /** `efi` when the provider will confirm the payment; `static` when the super user confirms it by hand. */
  provider: z.enum(['efi', 'static']),
});
export type SubscriptionResponse = z.infer<typeof subscriptionResponse>;

/** `company-{id}-payment`: a confirmed payment, with the company's new due date and the invoice now paid. */
export interface PaymentEventPayload {
  action: 'CONCLUIDA';
  company: { id: number; dueDate: string | null };
  invoice: Invoice;
}
