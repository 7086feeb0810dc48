import { quickMessageSchema, quickMessagesListQuery } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { listUsableQuickMessages } from './service.js';

/** Quick replies the composer offers after a leading '/' (spec 2 §7 Quick messages); the admin page comes later. */
export function registerQuickMessageRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/quick-messages/list',
    { schema: { tags: ['quick-messages'], querystring: quickMessagesListQuery, response: { 200: z.array(quickMessageSchema) } }, onRequest: authenticate },
    async (req) => listUsableQuickMessages(ctx, caller(req)),
  );
}
