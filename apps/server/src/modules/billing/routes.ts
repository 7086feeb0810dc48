import { idParam, invoicesPageSchema, pageQuery, subscriptionBody, subscriptionResponse } from '@balcao/contracts';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requireAdmin, requireSuper } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { pageInvoices } from './invoices.js';
import { confirmInvoiceByHand, handlePaymentWebhook, subscribe } from './payment.js';
import { paymentProvider } from './provider.js';
import { auditSource } from '../audit/record.js';

/** Efí posts `{ pix: [...] }` to the registered URL plus `/pix`; its registration test posts other bodies, answered 200 too. */
const webhookBody = z.object({ pix: z.array(z.object({ txid: z.string().max(35).optional() }).loose()).max(1000).optional() }).loose();

const sameSecret = (given: string | undefined, expected: string) =>
  given !== undefined && given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));

export function registerBillingRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const adminOnly = { onRequest: authenticate, preHandler: requireAdmin };
  const tags = ['billing'];
  const provider = paymentProvider(ctx.config);

  r.get('/invoices', { schema: { tags, summary: "The caller's company's invoices, newest period first", querystring: pageQuery, response: { 200: invoicesPageSchema } }, ...adminOnly }, async (req) =>
    pageInvoices(ctx.db, caller(req).companyId, req.query),
  );

  r.post('/subscription', { schema: { tags, summary: 'Checkout: prices the chosen plan and answers the PIX charge (BR Code, amount)', body: subscriptionBody, response: { 200: subscriptionResponse } }, ...adminOnly }, async (req) =>
    subscribe(ctx, provider, caller(req), req.body),
  );

  // The super user's view of one company's invoices (/companies), to confirm a static-PIX payment by hand.
  r.get(
    '/companies/:id/invoices',
    {
      schema: { tags, summary: "One company's invoices (super user)", params: z.object({ id: idParam }), querystring: pageQuery, response: { 200: invoicesPageSchema } },
      onRequest: authenticate,
      preHandler: requireSuper,
    },
    async (req) => pageInvoices(ctx.db, req.params.id, req.query),
  );

  r.post(
    '/invoices/:id/confirm',
    {
      schema: { tags, summary: 'Confirms a payment by hand (super user, static PIX)', params: z.object({ id: idParam }), response: { 200: z.object({}) } },
      onRequest: authenticate,
      preHandler: requireSuper,
    },
    async (req) => {
      await confirmInvoiceByHand(ctx, req.params.id, auditSource(req));
      return {};
    },
  );

  const webhook = async (req: FastifyRequest<{ Querystring: { hmac?: string }; Body: z.infer<typeof webhookBody> }>) => {
    const secret = ctx.config.billing.webhookSecret;
    if (secret && !sameSecret(req.query.hmac, secret)) throw new AppError('ERR_INVALID_SIGNATURE', 401);
    const txids = (req.body.pix ?? []).flatMap((p) => (p.txid ? [p.txid] : []));
    await handlePaymentWebhook(ctx, provider, txids);
    return {};
  };
  const webhookSchema = {
    tags,
    summary: 'Efí payment webhook (`?hmac=` EFI_WEBHOOK_SECRET); each txid is checked back with the provider',
    querystring: z.object({ hmac: z.string().max(200).optional() }), body: webhookBody, response: { 200: z.object({}) } };
  r.post('/subscription/webhook', { schema: webhookSchema }, webhook);
  r.post('/subscription/webhook/pix', { schema: webhookSchema }, webhook);
}
