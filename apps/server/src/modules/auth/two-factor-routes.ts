import {
  recoveryCodesSchema,
  twoFactorChallengeBody,
  twoFactorCodeBody,
  twoFactorEnrolmentSchema,
  twoFactorLoginBody,
  twoFactorLoginResponseSchema,
  twoFactorPolicyBody,
  twoFactorStatusSchema,
  idParam,
} from '@balcao/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requireAdmin } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { auditSource } from '../audit/record.js';
import type { LoginLimits } from './login-limits.js';
import type { IssuedSession } from './service.js';
import {
  challengeUser,
  confirmEnrolment,
  disableTwoFactor,
  loginWithCode,
  resetTwoFactor,
  setTwoFactorPolicy,
  startEnrolment,
  startLoginEnrolment,
  twoFactorStatus,
} from './two-factor.js';

interface AuthRouteKit {
  authenticate: (req: FastifyRequest) => Promise<void>;
  /** Sets the refresh cookie and answers the session. */
  answer: <S extends IssuedSession>(reply: FastifyReply, session: S) => Omit<S, 'refreshToken' | 'refreshExpiresAt'>;
  /** The login limits: 429 with Retry-After when reached. */
  throttle: (reply: FastifyReply, ip: string, account: string) => void;
  limits: LoginLimits;
}

/**
 * Two-factor login (TOTP, RFC 6238). Codes count against the same limits as passwords,
 * keyed by user: a wrong code is a failed attempt, a right one clears the address's count.
 */
export function registerTwoFactorRoutes(app: FastifyInstance, ctx: AppContext, kit: AuthRouteKit): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: kit.authenticate };
  const security = [{ bearer: [] }];

  /** Runs a code check under the limits of `account`. */
  async function limited<T>(req: FastifyRequest, reply: FastifyReply, account: string, check: () => Promise<T>): Promise<T> {
    kit.throttle(reply, req.ip, account);
    try {
      const result = await check();
      kit.limits.succeeded(req.ip, account);
      return result;
    } catch (err) {
      if (err instanceof AppError && err.code === 'ERR_INVALID_2FA_CODE') kit.limits.failed(req.ip, account);
      throw err;
    }
  }
  const codeAccount = (userId: number) => `2fa:${userId}`;

  r.post(
    '/auth/login/2fa',
    { schema: { tags: ['auth'], body: twoFactorLoginBody, response: { 200: twoFactorLoginResponseSchema } }, config: { rateLimit: false } },
    async (req, reply) => {
      const challenged = await challengeUser(ctx, req.body.challenge);
      const session = await limited(req, reply, codeAccount(challenged.user.id), () =>
        loginWithCode(ctx, challenged, req.body.code, auditSource(req)),
      );
      return kit.answer(reply, session);
    },
  );

  r.post(
    '/auth/login/2fa/enrol',
    { schema: { tags: ['auth'], body: twoFactorChallengeBody, response: { 200: twoFactorEnrolmentSchema } } },
    async (req) => startLoginEnrolment(ctx, req.body.challenge),
  );

  r.get('/auth/2fa', { ...signedIn, schema: { tags: ['auth'], security, response: { 200: twoFactorStatusSchema } } }, async (req) =>
    twoFactorStatus(ctx, caller(req)),
  );

  r.post('/auth/2fa/enrol', { ...signedIn, schema: { tags: ['auth'], security, response: { 200: twoFactorEnrolmentSchema } } }, async (req) =>
    startEnrolment(ctx, caller(req)),
  );

  r.post(
    '/auth/2fa/verify',
    { ...signedIn, schema: { tags: ['auth'], security, body: twoFactorCodeBody, response: { 200: recoveryCodesSchema } } },
    async (req, reply) => {
      const user = caller(req);
      return limited(req, reply, codeAccount(user.id), () => confirmEnrolment(ctx, user, req.body.code, auditSource(req)));
    },
  );

  r.post(
    '/auth/2fa/disable',
    { ...signedIn, schema: { tags: ['auth'], security, body: twoFactorCodeBody, response: { 200: z.object({}) } } },
    async (req, reply) => {
      const user = caller(req);
      await limited(req, reply, codeAccount(user.id), () => disableTwoFactor(ctx, user, req.body.code, auditSource(req)));
      return {};
    },
  );

  r.put(
    '/auth/2fa/policy',
    {
      ...signedIn,
      preHandler: requireAdmin,
      schema: { tags: ['auth'], security, body: twoFactorPolicyBody, response: { 200: z.object({ required: z.boolean() }) } },
    },
    async (req) => setTwoFactorPolicy(ctx, caller(req), req.body, auditSource(req)),
  );

  r.delete(
    '/auth/2fa/users/:userId',
    {
      ...signedIn,
      preHandler: requireAdmin,
      schema: { tags: ['auth'], security, params: z.object({ userId: idParam }), response: { 200: z.object({}) } },
    },
    async (req) => {
      await resetTwoFactor(ctx, caller(req), req.params.userId, auditSource(req));
      return {};
    },
  );
}
