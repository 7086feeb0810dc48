import { healthSchema, readinessSchema } from '@balcao/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../http/context.js';

/**
 * Probes for orchestrators and balancers: unauthenticated and outside the rate limit
 * (a probe every second must never be refused), and outside the billing gate, which
 * only applies to authenticated routes.
 */
export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const probe = { config: { rateLimit: false } } as const;

  r.get('/healthz', { ...probe, schema: { tags: ['health'], summary: 'The process is alive', response: { 200: healthSchema } } }, async () => ({
    status: 'ok' as const,
  }));

  r.get(
    '/readyz',
    { ...probe, schema: { tags: ['health'], summary: 'This node can take traffic (database, job queue, Redis when configured)', response: { 200: readinessSchema, 503: readinessSchema } } },
    async (_req, reply) => {
      const answer = await ctx.readiness.check();
      return reply.code(answer.status === 'ready' ? 200 : 503).send(answer);
    },
  );
}
