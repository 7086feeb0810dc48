import { chatbotOptionSchema, createChatbotBody, idParam, updateChatbotBody } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requireAdmin } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { createChatbot, deleteChatbot, getChatbot, updateChatbot } from './service.js';

const params = z.object({ id: idParam });

/** A queue's chatbot options one by one (the queue dialog can also save the whole tree with `PUT /queue/{id}`). */
export function registerChatbotRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const adminOnly = { onRequest: authenticate, preHandler: requireAdmin };
  const tags = ['chatbots'];

  r.get('/chatbot/:id', { schema: { tags, params, response: { 200: chatbotOptionSchema } }, onRequest: authenticate }, async (req) =>
    getChatbot(ctx, caller(req), req.params.id),
  );
  r.post('/chatbot', { schema: { tags, body: createChatbotBody, response: { 200: chatbotOptionSchema } }, ...adminOnly }, async (req) =>
    createChatbot(ctx, caller(req), req.body),
  );
  r.put('/chatbot/:id', { schema: { tags, params, body: updateChatbotBody, response: { 200: chatbotOptionSchema } }, ...adminOnly }, async (req) =>
    updateChatbot(ctx, caller(req), req.params.id, req.body),
  );
  r.delete('/chatbot/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...adminOnly }, async (req) => {
    await deleteChatbot(ctx, caller(req), req.params.id);
    return {};
  });
}
