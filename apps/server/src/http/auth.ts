import type { FastifyReply, FastifyRequest } from 'fastify';
import { findAuthUser } from '../modules/users/queries.js';
import { bearerToken, verifyAccessToken } from '../modules/auth/tokens.js';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';

/** The caller, as the token names it and the database confirms it. */
export interface AuthUser {
  id: number;
  companyId: number;
  profile: 'admin' | 'user';
  super: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthUser | null;
  }
}

/**
 * onRequest hook: missing header → 401; invalid/expired token, deleted user or
 * a logout since the token was issued → 403 ERR_SESSION_EXPIRED (the client
 * refreshes once and retries). The company always comes from here, never from the request.
 */
export function makeAuthenticate(ctx: AppContext) {
  return async function authenticate(req: FastifyRequest): Promise<void> {
    const header = req.headers.authorization;
    if (!header) throw new AppError('ERR_SESSION_EXPIRED', 401);
    const token = bearerToken(header);
    const claims = token ? await verifyAccessToken(ctx.secrets, token) : undefined;
    if (!claims) throw new AppError('ERR_SESSION_EXPIRED', 403);
    const user = await findAuthUser(ctx.db, claims.id);
    if (!user || user.tokenVersion !== claims.tv || user.companyId !== claims.companyId) {
      throw new AppError('ERR_SESSION_EXPIRED', 403);
    }
    req.auth = { id: user.id, companyId: user.companyId, profile: user.profile, super: user.super };
  };
}

/** The authenticated caller (routes behind `authenticate` only). */
export function caller(req: FastifyRequest): AuthUser {
  if (!req.auth) throw new AppError('ERR_SESSION_EXPIRED', 401);
  return req.auth;
}

export async function requireAdmin(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const user = caller(req);
  if (user.profile !== 'admin' && !user.super) throw new AppError('ERR_NO_PERMISSION', 403);
}

export async function requireSuper(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!caller(req).super) throw new AppError('ERR_NO_PERMISSION', 403);
}
