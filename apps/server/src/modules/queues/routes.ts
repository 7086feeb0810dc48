import { createQueueBody, idParam, queueSchema, updateQueueBody } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requireAdmin } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { createQueue, deleteQueue, getQueue, listOwnQueues, listQueues, updateQueue } from './service.js';

const params = z.object({ id: idParam });

/** Every user of the company reads its queues (selectors everywhere); admins manage them. */
export function registerQueueRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const adminOnly = { onRequest: authenticate, preHandler: requireAdmin };
  const tags = ['queues'];

  r.get('/queue', { schema: { tags, response: { 200: z.array(queueSchema) } }, onRequest: authenticate }, async (req) => listQueues(ctx, caller(req)));

  r.get('/queue/user', { schema: { tags, response: { 200: z.array(queueSchema) } }, onRequest: authenticate }, async (req) =>
    listOwnQueues(ctx, caller(req)),
  );

  r.get('/queue/:id', { schema: { tags, params, response: { 200: queueSchema } }, onRequest: authenticate }, async (req) =>
    getQueue(ctx, caller(req), req.params.id),
  );

  r.post('/queue', { schema: { tags, body: createQueueBody, response: { 200: queueSchema } }, ...adminOnly }, async (req) =>
    createQueue(ctx, caller(req), req.body),
  );

  r.put('/queue/:id', { schema: { tags, params, body: updateQueueBody, response: { 200: queueSchema } }, ...adminOnly }, async (req) =>
    updateQueue(ctx, caller(req), req.params.id, req.body),
  );

  r.delete('/queue/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...adminOnly }, async (req) => {
    await deleteQueue(ctx, caller(req), req.params.id);
    return {};
  });
}
