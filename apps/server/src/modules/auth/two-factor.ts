import type { RecoveryCodes, TwoFactorEnrolment, TwoFactorLoginResponse, TwoFactorPolicyBody, TwoFactorStatus } from '@balcao/contracts';
import { companies, users } from '../../db/schema/index.js';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../http/context.js';
import type { AuthUser } from '../../http/auth.js';
import { AppError } from '../../http/errors.js';
import { openSecret, sealSecret } from '../../secrets.js';
import { recordAudit, type AuditSource } from '../audit/record.js';
import { findAuthUser } from '../users/queries.js';
import { completeLogin, type IssuedSession } from './service.js';
import { verifyTwoFactorChallenge } from './tokens.js';
import { newRecoveryCodes, newTotpSecret, otpauthUrl, recoveryCodeHash, totpStep } from './totp.js';
import {
  consumeRecoveryCode,
  countRecoveryCodesLeft,
  deleteTwoFactor,
  enableTwoFactor,
  findTwoFactor,
  replaceRecoveryCodes,
  savePendingSecret,
  secondFactorDue,
  setTwoFactorRequired,
  twoFactorRequired,
  useStep,
} from './two-factor-queries.js';

/** The name authenticator apps show above the code. */
const ISSUER = 'Balcão';

type Holder = { id: number; companyId: number };

const invalidCode = () => new AppError('ERR_INVALID_2FA_CODE', 401);

export async function twoFactorStatus(ctx: AppContext, user: Holder): Promise<TwoFactorStatus> {
  const row = await findTwoFactor(ctx.db, user.id);
  return {
    enabled: Boolean(row?.enabledAt),
    required: await twoFactorRequired(ctx.db, user.companyId),
    recoveryCodesLeft: row?.enabledAt ? await countRecoveryCodesLeft(ctx.db, user.id) : 0,
  };
}

/** A new secret to scan; two-factor login turns on only once a code from it is confirmed. */
export async function startEnrolment(ctx: AppContext, user: Holder): Promise<TwoFactorEnrolment> {
  const row = await findTwoFactor(ctx.db, user.id);
  if (row?.enabledAt) throw new AppError('ERR_VALIDATION', 409, 'two-factor login is already on: turn it off first');
  const [account] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
  if (!account) throw new AppError('ERR_NO_USER_FOUND', 404);
  const secret = newTotpSecret();
  await savePendingSecret(ctx.db, { userId: user.id, companyId: user.companyId, secretEncrypted: sealSecret(ctx.secrets, secret) });
  return { secret, otpauthUrl: otpauthUrl(secret, account.email, ISSUER) };
}

/** Accepts a TOTP code once (its step is burnt); `false` for a wrong or replayed code. */
async function acceptTotp(ctx: AppContext, row: { userId: number; secretEncrypted: string }, code: string): Promise<boolean> {
  const step = totpStep(openSecret(ctx.secrets, row.secretEncrypted), code);
  return step !== undefined && (await useStep(ctx.db, row.userId, step));
}

/** The pending enrolment confirmed with its first code: on, with ten fresh recovery codes (shown once). */
export async function confirmEnrolment(ctx: AppContext, user: Holder, code: string, source: AuditSource): Promise<RecoveryCodes> {
  const row = await findTwoFactor(ctx.db, user.id);
  if (!row || row.enabledAt || !(await acceptTotp(ctx, row, code))) throw invalidCode();
  const recoveryCodes = newRecoveryCodes();
  await ctx.db.transaction(async (tx) => {
    await enableTwoFactor(tx, user.id);
    await replaceRecoveryCodes(tx, user, recoveryCodes.map((c) => recoveryCodeHash(c.replace('-', ''))));
    await recordAudit(tx, { companyId: user.companyId, entity: 'twoFactor', action: 'enable', entityId: user.id, source });
  });
  return { recoveryCodes };
}

/** A 6-digit code from the app, or one of the recovery codes (each works once). */
async function checkSecondFactor(ctx: AppContext, user: Holder, code: string): Promise<boolean> {
  const row = await findTwoFactor(ctx.db, user.id);
  if (!row?.enabledAt) return false;
  if (/^\d{6}$/.test(code)) return acceptTotp(ctx, row, code);
  return consumeRecoveryCode(ctx.db, user.id, recoveryCodeHash(code));
}

/** Off, proven with a current code; not while the company requires it. */
export async function disableTwoFactor(ctx: AppContext, user: Holder, code: string, source: AuditSource): Promise<void> {
  if (await twoFactorRequired(ctx.db, user.companyId)) throw new AppError('ERR_NO_PERMISSION', 403, 'the company requires two-factor login');
  if (!(await checkSecondFactor(ctx, user, code))) throw invalidCode();
  await ctx.db.transaction(async (tx) => {
    await deleteTwoFactor(tx, user.companyId, user.id);
    await recordAudit(tx, { companyId: user.companyId, entity: 'twoFactor', action: 'disable', entityId: user.id, source });
  });
}

/** An admin clears a user's authenticator (a lost phone); the user enrols again at the next login if required. */
export async function resetTwoFactor(ctx: AppContext, admin: AuthUser, userId: number, source: AuditSource): Promise<void> {
  const target = await findAuthUser(ctx.db, userId);
  if (!target || (!admin.super && target.companyId !== admin.companyId)) throw new AppError('ERR_NO_USER_FOUND', 404);
  await ctx.db.transaction(async (tx) => {
    await deleteTwoFactor(tx, target.companyId, target.id);
    await recordAudit(tx, { companyId: target.companyId, entity: 'twoFactor', action: 'disable', entityId: target.id, source });
  });
}

/** Admins set the rule for their company; the super user for any company. */
export async function setTwoFactorPolicy(ctx: AppContext, admin: AuthUser, body: TwoFactorPolicyBody, source: AuditSource) {
  const companyId = body.companyId ?? admin.companyId;
  if (companyId !== admin.companyId && !admin.super) throw new AppError('ERR_NO_PERMISSION', 403);
  const [company] = await ctx.db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND', 404);
  const before = await twoFactorRequired(ctx.db, companyId);
  await ctx.db.transaction(async (tx) => {
    await setTwoFactorRequired(tx, companyId, body.required);
    await recordAudit(tx, {
      companyId,
      entity: 'companySetting',
      action: 'update',
      entityId: companyId,
      before: { requireTwoFactor: before },
      after: { requireTwoFactor: body.required },
      source,
    });
  });
  return { required: body.required };
}

/** The user a login challenge names, still current (no logout since), and what is due from them. */
export async function challengeUser(ctx: AppContext, challenge: string) {
  const claims = await verifyTwoFactorChallenge(ctx.secrets, challenge);
  const user = claims && (await findAuthUser(ctx.db, claims.id));
  if (!claims || !user || user.tokenVersion !== claims.tv) throw new AppError('ERR_SESSION_EXPIRED', 401);
  const due = await secondFactorDue(ctx.db, user);
  if (!due) throw new AppError('ERR_SESSION_EXPIRED', 401);
  return { user, due };
}

/** The login page's enrolment, for a user whose company requires two-factor login. */
export async function startLoginEnrolment(ctx: AppContext, challenge: string): Promise<TwoFactorEnrolment> {
  const { user, due } = await challengeUser(ctx, challenge);
  if (due !== 'setup') throw new AppError('ERR_2FA_REQUIRED', 400);
  return startEnrolment(ctx, user);
}

/** The code step: a session, plus recovery codes when the code completed a required enrolment. */
export async function loginWithCode(
  ctx: AppContext,
  challenged: Awaited<ReturnType<typeof challengeUser>>,
  code: string,
  source: AuditSource,
): Promise<IssuedSession & Pick<TwoFactorLoginResponse, 'recoveryCodes'>> {
  const { user, due } = challenged;
  const attempt = { ...source, userId: user.id };
  let recoveryCodes: string[] | undefined;
  try {
    if (due === 'setup') ({ recoveryCodes } = await confirmEnrolment(ctx, user, code, attempt));
    else if (!(await checkSecondFactor(ctx, user, code))) throw invalidCode();
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_INVALID_2FA_CODE') {
      await recordAudit(ctx.db, { companyId: user.companyId, entity: 'session', action: 'loginFailed', entityId: user.id, after: { step: 'code' }, source: attempt });
    }
    throw err;
  }
  const session = await completeLogin(ctx, user, attempt);
  return recoveryCodes ? { ...session, recoveryCodes } : session;
}
