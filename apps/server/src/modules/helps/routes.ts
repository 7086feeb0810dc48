import { createHelpBody, helpSchema, helpsPageSchema, idParam, pageQuery, updateHelpBody } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSuper } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { createHelp, deleteHelp, listHelps, pageHelps, updateHelp } from './service.js';

const params = z.object({ id: idParam });

/** Everyone watches help videos; only the super user manages them. */
export function registerHelpRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const superOnly = { onRequest: authenticate, preHandler: requireSuper };
  const tags = ['helps'];

  r.get('/helps', { schema: { tags, querystring: pageQuery, response: { 200: helpsPageSchema } }, onRequest: authenticate }, async (req) =>
    pageHelps(ctx, req.query),
  );

  r.get('/helps/list', { schema: { tags, response: { 200: z.array(helpSchema) } }, onRequest: authenticate }, async () => listHelps(ctx));

  r.post('/helps', { schema: { tags, body: createHelpBody, response: { 200: helpSchema } }, ...superOnly }, async (req) => createHelp(ctx, req.body));

  r.put('/helps/:id', { schema: { tags, params, body: updateHelpBody, response: { 200: helpSchema } }, ...superOnly }, async (req) =>
    updateHelp(ctx, req.params.id, req.body),
  );

  r.delete('/helps/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...superOnly }, async (req) => {
    await deleteHelp(ctx, req.params.id);
    return {};
  });
}
