import { createUserBody, userSchema } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { caller, requireAdmin } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { createUser } from './service.js';

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/users',
    { schema: { tags: ['users'], body: createUserBody, response: { 200: userSchema } }, onRequest: authenticate, preHandler: requireAdmin },
    async (req) => createUser(ctx, caller(req), req.body),
  );
}
