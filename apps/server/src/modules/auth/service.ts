import {
  COMPANY_SETTING_DEFAULTS,
  SIGNUP_TRIAL_DAYS,
  type AuthResponse,
  type SessionUser,
  type SignupResponse,
  type LoginBody,
} from '@balcao/contracts';
import type { signupBody } from '@balcao/contracts';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { getDummyHash, verifyPassword } from '../../db/passwords.js';
import { companies, companySettings, users } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { assertSessionCurrent } from '../../http/auth.js';
import { AppError } from '../../http/errors.js';
import { emailExists, findAuthUser, findUserByEmail } from '../users/queries.js';
import {
  bumpTokenVersion,
  companyNameExists,
  consumeRefreshToken,
  findPlan,
  globalSettingValue,
  insertRefreshToken,
  reusedTokenFamily,
  revokeFamily,
  revokeUserRefreshTokens,
  touchCompanyLastLogin,
} from './queries.js';
import { hashChosenPassword } from './password-policy.js';
import { loadSession } from './session-user.js';
import { signAccessToken, signRefreshToken, signTwoFactorChallenge, verifyRefreshToken, type AccessClaims } from './tokens.js';
import { secondFactorDue, type SecondFactorDue } from './two-factor-queries.js';
import { recordAudit, type AuditSource } from '../audit/record.js';

/** A used refresh token presented again within this delay is two tabs racing with one cookie, not theft. */
export const REFRESH_REUSE_GRACE_MS = 2000;

export interface IssuedSession extends AuthResponse {
  refreshToken: string;
  refreshExpiresAt: Date;
}

const hhmm = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;

/** Working hours, server local time, both ends inclusive; a start after the end spans midnight. */
export function withinWorkHours(startWork: string, endWork: string, now: Date): boolean {
  const t = hhmm(now);
  return startWork <= endWork ? t >= startWork && t <= endWork : t >= startWork || t <= endWork;
}

/** YYYY-MM-DD of `now + days`, in server local time. */
export function localDatePlusDays(days: number, now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** `family`: the refresh rotation family, new at login and kept by every refresh. */
async function issueSession(
  ctx: AppContext,
  user: { id: number; companyId: number; profile: 'admin' | 'user'; tokenVersion: number },
  family: string,
): Promise<IssuedSession> {
  const refresh = await signRefreshToken(ctx.secrets, { id: user.id, tokenVersion: user.tokenVersion });
  await insertRefreshToken(ctx.db, { userId: user.id, companyId: user.companyId, jti: refresh.jti, family, expiresAt: refresh.expiresAt });
  const token = await signAccessToken(ctx.secrets, { id: user.id, profile: user.profile, companyId: user.companyId, tv: user.tokenVersion, fam: family });
  const session = await loadSession(ctx.db, user.id);
  if (!session) throw new AppError('ERR_SESSION_EXPIRED', 401);
  return { token, user: session.user, refreshToken: refresh.token, refreshExpiresAt: refresh.expiresAt };
}

/** The password step's outcome: a session, or the second factor still due (`code`, or `setup` when the company requires one the user lacks). */
export type PasswordOutcome = { session: IssuedSession } | { secondFactor: SecondFactorDue; challenge: string };

/** `source`: who tried and from where, for the audit log (failed logins included). */
export async function login(ctx: AppContext, body: LoginBody, source: AuditSource, now = new Date()): Promise<PasswordOutcome> {
  const user = await findUserByEmail(ctx.db, body.email);
  if (!user) {
    // Same work as a real check, so response time does not reveal which e-mails exist.
    await verifyPassword(await getDummyHash(), body.password);
    throw new AppError('ERR_INVALID_CREDENTIALS', 401);
  }
  const attempt = { ...source, userId: user.id, userName: user.name };
  if (!(await verifyPassword(user.passwordHash, body.password))) {
    await recordAudit(ctx.db, { companyId: user.companyId, entity: 'session', action: 'loginFailed', entityId: user.id, source: attempt });
    throw new AppError('ERR_INVALID_CREDENTIALS', 401);
  }
  if (!user.super && !withinWorkHours(user.startWork, user.endWork, now)) throw new AppError('ERR_OUT_OF_HOURS', 401);

  const due = await secondFactorDue(ctx.db, user);
  if (due) return { secondFactor: due, challenge: await signTwoFactorChallenge(ctx.secrets, user) };
  return { session: await completeLogin(ctx, user, attempt) };
}

/** The last step of every login: the password alone, or the password and its second factor. */
export async function completeLogin(
  ctx: AppContext,
  user: { id: number; companyId: number; profile: 'admin' | 'user'; tokenVersion: number },
  source: AuditSource,
): Promise<IssuedSession> {
  // An expired company still gets its token: the web app sends it to /financeiro-aberto.
  await touchCompanyLastLogin(ctx.db, user.companyId);
  const session = await issueSession(ctx, user, randomUUID());
  await recordAudit(ctx.db, { companyId: user.companyId, entity: 'session', action: 'login', entityId: user.id, source });
  // Older sessions of this user log out (spec 1 §4 Session).
  await ctx.events.publish({ type: 'user.signedIn', companyId: user.companyId, userId: user.id });
  return session;
}

/**
 * Single-use rotation: the presented refresh token is consumed and a new one of its family
 * issued. A token presented again after its use means someone holds a copy: the whole family
 * (the newest token, its access tokens, its sockets) is revoked (OAuth 2.0 Security BCP
 * §4.14.2). Every failure is 401.
 */
export async function refresh(ctx: AppContext, cookie: string | undefined): Promise<IssuedSession> {
  const expired = () => new AppError('ERR_SESSION_EXPIRED', 401);
  if (!cookie) throw expired();
  const claims = await verifyRefreshToken(ctx.secrets, cookie);
  if (!claims) throw expired();
  const family = await consumeRefreshToken(ctx.db, claims.jti, claims.id);
  if (!family) {
    const reused = await reusedTokenFamily(ctx.db, claims.jti, claims.id, REFRESH_REUSE_GRACE_MS);
    if (reused) {
      await revokeFamily(ctx.db, reused.companyId, reused.family);
      await ctx.events.publish({ type: 'user.familyRevoked', companyId: reused.companyId, userId: claims.id, family: reused.family });
      ctx.log.warn({ userId: claims.id, family: reused.family }, 'refresh token reused: family revoked');
    }
    throw expired();
  }
  const user = await findAuthUser(ctx.db, claims.id);
  if (!user || user.tokenVersion !== claims.tokenVersion) throw expired();
  return issueSession(ctx, user, family);
}

export async function logout(ctx: AppContext, user: { id: number; companyId: number }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await bumpTokenVersion(tx, user.id);
    await revokeUserRefreshTokens(tx, user.id);
  });
  await ctx.events.publish({ type: 'user.signedOut', companyId: user.companyId, userId: user.id });
}

/** `GET /auth/me`: authenticates its own token so the whole answer is one query (it runs on every page load). */
export async function me(ctx: AppContext, claims: AccessClaims): Promise<SessionUser> {
  const session = await loadSession(ctx.db, claims.id, claims.fam);
  assertSessionCurrent(claims, session && { ...session, companyId: session.user.companyId });
  return session.user;
}

export async function signup(ctx: AppContext, body: z.output<typeof signupBody>, now = new Date()): Promise<SignupResponse> {
  if ((await globalSettingValue(ctx.db, 'userCreation')) !== 'enabled') throw new AppError('ERR_USER_CREATION_DISABLED', 403);
  const dueDate = localDatePlusDays(SIGNUP_TRIAL_DAYS, now);
  const passwordHash = await hashChosenPassword(body.password);

  return ctx.db.transaction(async (tx) => {
    const plan = await findPlan(tx, body.planId);
    if (!plan || !plan.isPublic) throw new AppError('ERR_NO_PLAN_FOUND', 400);
    if (await emailExists(tx, body.email)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS', 409);
    if (await companyNameExists(tx, body.companyName)) throw new AppError('ERR_COMPANY_NAME_EXISTS', 409);

    const [company] = await tx
      .insert(companies)
      .values({
        name: body.companyName,
        email: body.email,
        phone: body.phone || null,
        planId: plan.id,
        status: true,
        dueDate,
        recurrence: 'MENSAL',
      })
      .returning({ id: companies.id });
    if (!company) throw new AppError('ERR_INTERNAL', 500);
    const [user] = await tx
      .insert(users)
      .values({ companyId: company.id, name: body.name, email: body.email, passwordHash, profile: 'admin', super: false })
      .returning({ id: users.id });
    if (!user) throw new AppError('ERR_INTERNAL', 500);
    await tx.insert(companySettings).values({ companyId: company.id, ...COMPANY_SETTING_DEFAULTS });
    return { companyId: company.id, userId: user.id, dueDate };
  });
}
