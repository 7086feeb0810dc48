import { createPromptBody, idParam, promptDeletedResponse, promptListResponse, promptSchema, updatePromptBody } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requireAdmin } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { requirePlanFlag } from '../../http/plan.js';
import { createPrompt, deletePrompt, getPrompt, listPrompts, updatePrompt } from './service.js';

const params = z.object({ id: idParam });

/** AI prompts (spec 3 §7 "Prompts"): admins of a company whose plan has `useOpenAi`. */
export function registerPromptRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['prompts'];
  const guard = { onRequest: authenticate, preHandler: [requireAdmin, requirePlanFlag('useOpenAi')] };

  r.get('/prompt', { schema: { tags, response: { 200: promptListResponse } }, ...guard }, async (req) => listPrompts(ctx, caller(req)));
  r.get('/prompt/:id', { schema: { tags, params, response: { 200: promptSchema } }, ...guard }, async (req) => getPrompt(ctx, caller(req), req.params.id));
  r.post('/prompt', { schema: { tags, body: createPromptBody, response: { 200: promptSchema } }, ...guard }, async (req) =>
    createPrompt(ctx, caller(req), req.body),
  );
  r.put('/prompt/:id', { schema: { tags, params, body: updatePromptBody, response: { 200: promptSchema } }, ...guard }, async (req) =>
    updatePrompt(ctx, caller(req), req.params.id, req.body),
  );
  r.delete('/prompt/:id', { schema: { tags, params, response: { 200: promptDeletedResponse } }, ...guard }, async (req) =>
    deletePrompt(ctx, caller(req), req.params.id),
  );
}
