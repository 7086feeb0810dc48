import { authResponseSchema, loginBody, sessionUserSchema, signupBody, signupResponseSchema } from '@balcao/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accessClaimsOf, caller } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { login, logout, me, refresh, signup, type IssuedSession } from './service.js';
import { refuseRevokedFamilies } from './socket-families.js';

export const REFRESH_COOKIE = 'jrt';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  refuseRevokedFamilies(ctx.realtime, ctx.db);
  const secure = ctx.config.apiUrl.startsWith('https://');
  const cookieOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure } as const;

  const answer = (reply: FastifyReply, session: IssuedSession) => {
    reply.setCookie(REFRESH_COOKIE, session.refreshToken, { ...cookieOptions, expires: session.refreshExpiresAt });
    return { token: session.token, user: session.user };
  };

  // Per IP and per e-mail, checked before any password hashing.
  const perIp = app.createRateLimit({ max: ctx.config.rateLimit.loginPerIpPerMinute, timeWindow: 60_000 });
  const perEmail = app.createRateLimit({
    max: ctx.config.rateLimit.loginPerEmailPerMinute,
    timeWindow: 60_000,
    keyGenerator: (req) => `login:${String((req.body as { email?: unknown } | undefined)?.email ?? '')}`,
  });
  const loginLimits = async (req: FastifyRequest) => {
    const [ip, email] = await Promise.all([perIp(req), perEmail(req)]);
    if ((!ip.isAllowed && ip.isExceeded) || (!email.isAllowed && email.isExceeded)) throw new AppError('ERR_TOO_MANY_REQUESTS', 429);
  };

  r.post(
    '/auth/login',
    {
      schema: { tags: ['auth'], body: loginBody, response: { 200: authResponseSchema } },
      config: { rateLimit: false },
      preHandler: loginLimits,
    },
    async (req, reply) => answer(reply, await login(ctx, req.body)),
  );

  r.post(
    '/auth/refresh_token',
    { schema: { tags: ['auth'], response: { 200: authResponseSchema } } },
    async (req, reply) => {
      try {
        return answer(reply, await refresh(ctx, req.cookies[REFRESH_COOKIE]));
      } catch (err) {
        reply.clearCookie(REFRESH_COOKIE, cookieOptions);
        throw err;
      }
    },
  );

  r.delete(
    '/auth/logout',
    { schema: { tags: ['auth'], response: { 200: z.object({}) } }, onRequest: authenticate },
    async (req, reply) => {
      await logout(ctx, caller(req));
      reply.clearCookie(REFRESH_COOKIE, cookieOptions);
      return {};
    },
  );

  r.get('/auth/me', { schema: { tags: ['auth'], response: { 200: sessionUserSchema }, security: [{ bearer: [] }] } }, async (req) =>
    me(ctx, await accessClaimsOf(ctx, req)),
  );

  r.post('/auth/signup', { schema: { tags: ['auth'], body: signupBody, response: { 200: signupResponseSchema } } }, async (req) =>
    signup(ctx, req.body),
  );
}
