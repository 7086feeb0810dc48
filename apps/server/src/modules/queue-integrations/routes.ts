import {
  createQueueIntegrationBody,
  idParam,
  pageQueueIntegrationsQuery,
  queueIntegrationPageResponse,
  queueIntegrationSchema,
  testQueueIntegrationBody,
  testQueueIntegrationResponse,
  updateQueueIntegrationBody,
} from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requireAdmin } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { requirePlanFlag } from '../../http/plan.js';
import {
  createQueueIntegration,
  deleteQueueIntegration,
  getQueueIntegration,
  pageQueueIntegrations,
  testQueueIntegration,
  updateQueueIntegration,
} from './service.js';

const params = z.object({ id: idParam });

/** Queue integrations (spec 3 §2 "Integrations page", §7): admins of a company whose plan has `useIntegrations`. */
export function registerQueueIntegrationRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['queue-integrations'];
  const guard = { onRequest: authenticate, preHandler: [requireAdmin, requirePlanFlag('useIntegrations')] };

  r.get('/queueIntegration', { schema: { tags, querystring: pageQueueIntegrationsQuery, response: { 200: queueIntegrationPageResponse } }, ...guard }, async (req) =>
    pageQueueIntegrations(ctx, caller(req), req.query),
  );
  r.post(
    '/queueIntegration/testSession',
    { schema: { tags, body: testQueueIntegrationBody, response: { 200: testQueueIntegrationResponse } }, ...guard },
    async (req) => testQueueIntegration(ctx, caller(req), req.body),
  );
  r.get('/queueIntegration/:id', { schema: { tags, params, response: { 200: queueIntegrationSchema } }, ...guard }, async (req) =>
    getQueueIntegration(ctx, caller(req), req.params.id),
  );
  r.post('/queueIntegration', { schema: { tags, body: createQueueIntegrationBody, response: { 200: queueIntegrationSchema } }, ...guard }, async (req) =>
    createQueueIntegration(ctx, caller(req), req.body),
  );
  r.put(
    '/queueIntegration/:id',
    { schema: { tags, params, body: updateQueueIntegrationBody, response: { 200: queueIntegrationSchema } }, ...guard },
    async (req) => updateQueueIntegration(ctx, caller(req), req.params.id, req.body),
  );
  r.delete('/queueIntegration/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...guard }, async (req) => {
    await deleteQueueIntegration(ctx, caller(req), req.params.id);
    return {};
  });
}
