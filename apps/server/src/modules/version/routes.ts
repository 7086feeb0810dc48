import { postVersionBody, versionSchema } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { versions } from '../../db/schema/index.js';
import { requireSuper } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';

export function registerVersionRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/version', { schema: { tags: ['version'], response: { 200: versionSchema } } }, async () => {
    const [row] = await ctx.db.select({ version: versions.version }).from(versions).limit(1);
    if (!row) throw new AppError('ERR_NOT_FOUND', 404);
    return row;
  });

  r.post(
    '/version',
    { schema: { tags: ['version'], body: postVersionBody, response: { 200: versionSchema } }, onRequest: authenticate, preHandler: requireSuper },
    async (req) => {
      const [row] = await ctx.db
        .insert(versions)
        .values({ id: 1, version: req.body.version })
        .onConflictDoUpdate({ target: versions.id, set: { version: req.body.version, updatedAt: sql`now()` } })
        .returning({ version: versions.version });
      return row ?? req.body;
    },
  );
}
