import { createWebhookBody, idParam, pageQuery, updateWebhookBody, webhookDeliveriesPageSchema, webhookDeliverySchema, webhookEndpointSchema } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requireAdmin } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { createEndpoint, deleteEndpoint, listEndpoints, pageDeliveries, pingEndpoint, rotateSecret, updateEndpoint } from './service.js';

const params = z.object({ id: idParam });

/** Outbound webhooks (docs/webhooks.md): the company's admins register endpoints and read their deliveries. */
export function registerOutboundWebhookRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['webhooks'];
  const admin = { onRequest: authenticate, preHandler: requireAdmin };

  r.get('/webhooks', { schema: { tags, response: { 200: z.array(webhookEndpointSchema) } }, ...admin }, async (req) => listEndpoints(ctx, caller(req)));
  r.post('/webhooks', { schema: { tags, body: createWebhookBody, response: { 200: webhookEndpointSchema } }, ...admin }, async (req) =>
    createEndpoint(ctx, caller(req), req.body),
  );
  r.put('/webhooks/:id', { schema: { tags, params, body: updateWebhookBody, response: { 200: webhookEndpointSchema } }, ...admin }, async (req) =>
    updateEndpoint(ctx, caller(req), req.params.id, req.body),
  );
  r.delete('/webhooks/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...admin }, async (req) => {
    await deleteEndpoint(ctx, caller(req), req.params.id);
    return {};
  });
  r.post('/webhooks/:id/secret', { schema: { tags, params, response: { 200: webhookEndpointSchema } }, ...admin }, async (req) =>
    rotateSecret(ctx, caller(req), req.params.id),
  );
  r.post('/webhooks/:id/test', { schema: { tags, params, response: { 200: webhookDeliverySchema } }, ...admin }, async (req) =>
    pingEndpoint(ctx, caller(req), req.params.id),
  );
  r.get(
    '/webhooks/:id/deliveries',
    { schema: { tags, params, querystring: pageQuery.pick({ pageNumber: true }), response: { 200: webhookDeliveriesPageSchema } }, ...admin },
    async (req) => pageDeliveries(ctx, caller(req), req.params.id, req.query.pageNumber),
  );
}
