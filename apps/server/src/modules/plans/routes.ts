import { planSchema } from '@balcao/contracts';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { plans } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { presentPlan } from './presenter.js';

export function registerPlanRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Public: the signup page's plan selector. Only public plans are listed here,
  // whatever `listPublic` says (older clients send it); private plans are the super user's business.
  r.get(
    '/plans/list',
    {
      schema: {
        tags: ['plans'],
        querystring: z.object({ listPublic: z.string().max(10).optional() }),
        response: { 200: z.array(planSchema) },
      },
    },
    async () => {
      const rows = await ctx.db.select().from(plans).where(eq(plans.isPublic, true)).orderBy(asc(plans.amount), asc(plans.id));
      return rows.map(presentPlan);
    },
  );
}
