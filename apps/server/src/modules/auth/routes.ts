import { authResponseSchema, loginBody, loginRefusalSchema, sessionUserSchema, signupBody, signupResponseSchema, type LoginBody } from '@balcao/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accessClaimsOf, caller } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { login, logout, me, refresh, signup, type IssuedSession } from './service.js';
import { LoginLimits } from './login-limits.js';
import { registerTwoFactorRoutes } from './two-factor-routes.js';
import { auditSource } from '../audit/record.js';

export const REFRESH_COOKIE = 'jrt';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const secure = ctx.config.apiUrl.startsWith('https://');
  const cookieOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure } as const;

  const answer = <S extends IssuedSession>(reply: FastifyReply, session: S) => {
    const { refreshToken, refreshExpiresAt, ...body } = session;
    reply.setCookie(REFRESH_COOKIE, refreshToken, { ...cookieOptions, expires: refreshExpiresAt });
    return body;
  };

  const limits = new LoginLimits({
    perIpPerMinute: ctx.config.rateLimit.loginPerIpPerMinute,
    perEmailPerMinute: ctx.config.rateLimit.loginPerEmailPerMinute,
    perAccountPerHour: ctx.config.rateLimit.loginPerAccountPerHour,
  });
  // Checked before any password hashing; the 429 says when to come back.
  const throttle = (reply: FastifyReply, ip: string, account: string) => {
    const wait = limits.attempt(ip, account);
    if (wait === undefined) return;
    reply.header('Retry-After', String(wait));
    throw new AppError('ERR_TOO_MANY_REQUESTS', 429);
  };
  const loginLimits = async (req: FastifyRequest<{ Body: LoginBody }>, reply: FastifyReply) => throttle(reply, req.ip, req.body.email);

  r.post(
    '/auth/login',
    {
      schema: { tags: ['auth'], body: loginBody, response: { 200: authResponseSchema, 401: loginRefusalSchema, 403: loginRefusalSchema } },
      config: { rateLimit: false },
      preHandler: loginLimits,
    },
    async (req, reply) => {
      try {
        const outcome = await login(ctx, req.body, auditSource(req));
        limits.succeeded(req.ip, req.body.email);
        if ('session' in outcome) return answer(reply, outcome.session);
        // The password was right; the code step (`POST /auth/login/2fa`) finishes the login.
        const due = outcome.secondFactor === 'code' ? ({ error: 'ERR_2FA_REQUIRED', status: 401 } as const) : ({ error: 'ERR_2FA_SETUP_REQUIRED', status: 403 } as const);
        return reply.status(due.status).send({ error: due.error, challenge: outcome.challenge });
      } catch (err) {
        if (err instanceof AppError && err.code === 'ERR_INVALID_CREDENTIALS') limits.failed(req.ip, req.body.email);
        throw err;
      }
    },
  );

  registerTwoFactorRoutes(app, ctx, { authenticate, answer, throttle, limits });

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
