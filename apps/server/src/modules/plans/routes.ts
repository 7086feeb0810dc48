import { createPlanBody, idParam, planSchema, updatePlanBody } from '@balcao/contracts';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { plans } from '../../db/schema/index.js';
import { requireSuper } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { presentPlan } from './presenter.js';
import { createPlan, deletePlan, getPlan, listAllPlans, updatePlan } from './service.js';

const params = z.object({ id: idParam });

export function registerPlanRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const superOnly = { onRequest: authenticate, preHandler: requireSuper };
  const tags = ['plans'];

  // Public: the signup page's plan selector. Only public plans are listed here,
  // whatever `listPublic` says (older clients send it); private plans are the super user's business.
  r.get(
    '/plans/list',
    {
      schema: {
        tags,
        querystring: z.object({ listPublic: z.string().max(10).optional() }),
        response: { 200: z.array(planSchema) },
      },
    },
    async () => {
      const rows = await ctx.db.select().from(plans).where(eq(plans.isPublic, true)).orderBy(asc(plans.amount), asc(plans.id));
      return rows.map(presentPlan);
    },
  );

  r.get('/plans/all', { schema: { tags, response: { 200: z.array(planSchema) } }, ...superOnly }, async () => listAllPlans(ctx));

  r.get('/plans/:id', { schema: { tags, params, response: { 200: planSchema } }, ...superOnly }, async (req) => getPlan(ctx, req.params.id));

  r.post('/plans', { schema: { tags, body: createPlanBody, response: { 200: planSchema } }, ...superOnly }, async (req) => createPlan(ctx, req.body));

  r.put('/plans/:id', { schema: { tags, params, body: updatePlanBody, response: { 200: planSchema } }, ...superOnly }, async (req) =>
    updatePlan(ctx, req.params.id, req.body),
  );

  r.delete('/plans/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...superOnly }, async (req) => {
    await deletePlan(ctx, req.params.id);
    return {};
  });
}
