import { can, type Permission } from '@balcao/contracts';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { findTokenUser } from '../modules/auth/queries.js';
import { assertSubscriptionActive } from '../modules/billing/expiry.js';
import { bearerToken, verifyAccessToken, type AccessClaims } from '../modules/auth/tokens.js';
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
 * The access token's claims: missing header → 401; a header that is not exactly
 * `Bearer <token>`, an invalid or expired token → 403 ERR_SESSION_EXPIRED (the client
 * refreshes once and retries).
 */
export async function accessClaimsOf(ctx: AppContext, req: FastifyRequest): Promise<AccessClaims> {
  const header = req.headers.authorization;
  if (!header) throw new AppError('ERR_SESSION_EXPIRED', 401);
  const token = bearerToken(header);
  const claims = token ? (verifiedClaims(ctx, token) ?? (await verifyAndKeep(ctx, token))) : undefined;
  if (!claims) throw new AppError('ERR_SESSION_EXPIRED', 403);
  return claims;
}

/**
 * Access tokens whose signature this process checked, with their expiry, per signing secret: a client sends
 * the same token on every request for up to 15 minutes, and checking its HMAC through WebCrypto cost ~1.3 ms of
 * CPU per request (a third of an inbox page's Node time, docs/BENCHMARKS.md "Inbox list", list10d). Only the
 * signature is remembered: the expiry is checked on every request, and the session (token version, refresh
 * family, company) is read from the database on every request as before. At most VERIFIED_MAX tokens, the
 * oldest forgotten first.
 */
const verified = new WeakMap<AppContext['secrets'], Map<string, { claims: AccessClaims; expiresAtMs: number }>>();
const VERIFIED_MAX = 10_000;

function verifiedClaims(ctx: AppContext, token: string): AccessClaims | undefined {
  const kept = verified.get(ctx.secrets)?.get(token);
  if (!kept) return undefined;
  if (Date.now() < kept.expiresAtMs) return kept.claims;
  verified.get(ctx.secrets)?.delete(token);
  return undefined;
}

async function verifyAndKeep(ctx: AppContext, token: string): Promise<AccessClaims | undefined> {
  const claims = await verifyAccessToken(ctx.secrets, token);
  if (!claims) return undefined;
  // Signed by us and unexpired (verifyAccessToken requires `exp`): its payload is ours to read.
  const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
  let kept = verified.get(ctx.secrets);
  if (!kept) verified.set(ctx.secrets, (kept = new Map()));
  if (kept.size >= VERIFIED_MAX) kept.delete(kept.keys().next().value!);
  kept.set(token, { claims, expiresAtMs: exp * 1000 });
  return claims;
}

/** A deleted user, a company mismatch, a logout since issue (`tv`) or a revoked refresh family → 403. */
export function assertSessionCurrent(
  claims: AccessClaims,
  user: { companyId: number; tokenVersion: number; familyRevoked: boolean } | undefined,
): asserts user {
  if (!user || user.tokenVersion !== claims.tv || user.companyId !== claims.companyId || user.familyRevoked) {
    throw new AppError('ERR_SESSION_EXPIRED', 403);
  }
}

/** onRequest hook: the caller from its token, confirmed by the database in one query. The company always comes from here, never from the request. */
export function makeAuthenticate(ctx: AppContext) {
  return async function authenticate(req: FastifyRequest): Promise<void> {
    const claims = await accessClaimsOf(ctx, req);
    const user = await findTokenUser(ctx.db, claims.id, claims.fam);
    assertSessionCurrent(claims, user);
    assertSubscriptionActive(req, user.companyId, user.dueDate);
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

/** Route guard for an action of the static permission table (the super user may do everything). */
export function requirePermission(permission: Permission) {
  return permissionGuard(async function permissionTableGuard(req: FastifyRequest): Promise<void> {
    const user = caller(req);
    if (!user.super && !can(user.profile, permission)) throw new AppError('ERR_NO_PERMISSION', 403);
  });
}

const PERMISSION_GUARDS = new WeakSet<object>([requireAdmin, requireSuper]);

/** Marks a route guard that refuses callers (role, plan feature): it runs before validation, see `hoistPermissionGuards`. */
export function permissionGuard<T extends object>(guard: T): T {
  PERMISSION_GUARDS.add(guard);
  return guard;
}
const asArray = <T>(hook: T | T[] | undefined): T[] => (hook === undefined ? [] : Array.isArray(hook) ? hook : [hook]);

/**
 * onRoute hook: permission guards declared as `preHandler` run right after `authenticate`
 * instead, so a caller who may not use a route gets 403 before its body is parsed and
 * validated (a 400 listing the fields would tell what the route expects).
 */
export function hoistPermissionGuards(route: RouteOptions): void {
  const preHandler = asArray(route.preHandler);
  const guards = preHandler.filter((hook) => PERMISSION_GUARDS.has(hook as object));
  if (guards.length === 0) return;
  route.preHandler = preHandler.filter((hook) => !PERMISSION_GUARDS.has(hook as object));
  route.onRequest = [...asArray(route.onRequest), ...guards] as RouteOptions['onRequest'];
}
