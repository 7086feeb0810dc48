import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userRecoveryCodes, userTwoFactor } from '../../db/schema/index.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createCompanyWithAdmin, createTestApp, login, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createPlainUser } from '../../../test/roles.js';
import { currentTotp } from './totp.js';

/** Issue 18 (two-factor login): enrol, the login code step, recovery codes, the company rule, limits. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_IP: '1000', LOGIN_MAX_PER_EMAIL: '3' });
});
afterAll(() => t.close());

const STEP_MS = 30_000;
const post = (url: string, payload: unknown, token?: string) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers: token ? bearer(token) : {} });
const passwordStep = (email: string, password: string) => post('/auth/login', { email, password });

/** Enrols the signed-in user; returns the secret and the recovery codes. Uses the current 30 s step. */
async function enrol(session: LoggedIn) {
  const started = await post('/auth/2fa/enrol', {}, session.token);
  expect(started.statusCode).toBe(200);
  const { secret, otpauthUrl } = started.json() as { secret: string; otpauthUrl: string };
  expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/.+\?.*secret=/);
  expect(otpauthUrl).toContain(`secret=${secret}`);
  const verified = await post('/auth/2fa/verify', { code: currentTotp(secret) }, session.token);
  expect(verified.statusCode).toBe(200);
  return { secret, recoveryCodes: (verified.json() as { recoveryCodes: string[] }).recoveryCodes };
}

async function challengeFor(email: string, password: string): Promise<string> {
  const res = await passwordStep(email, password);
  expect(res.statusCode).toBe(401);
  const body = res.json() as { error: string; challenge: string };
  expect(body.error).toBe('ERR_2FA_REQUIRED');
  return body.challenge;
}

describe('two-factor enrolment', () => {
  it('turns on only with a right code, gives ten recovery codes once, and stores the secret encrypted and the codes hashed', async () => {
    const { email, password } = await createCompanyWithAdmin(t.db, { password: 'Quartzo-Lírio-884' });
    const session = await login(t.app, email, password);
    const started = await post('/auth/2fa/enrol', {}, session.token);
    const { secret } = started.json() as { secret: string };

    const wrong = await post('/auth/2fa/verify', { code: currentTotp(secret, Date.now() - 10 * STEP_MS) }, session.token);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'ERR_INVALID_2FA_CODE' });
    expect((await t.app.inject({ method: 'GET', url: '/auth/2fa', headers: bearer(session.token) })).json()).toEqual({
      enabled: false,
      required: false,
      recoveryCodesLeft: 0,
    });

    const verified = await post('/auth/2fa/verify', { code: currentTotp(secret) }, session.token);
    expect(verified.statusCode).toBe(200);
    const { recoveryCodes } = verified.json() as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await t.app.inject({ method: 'GET', url: '/auth/2fa', headers: bearer(session.token) })).json()).toEqual({
      enabled: true,
      required: false,
      recoveryCodesLeft: 10,
    });

    const [row] = await t.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, session.user.id));
    expect(row?.secretEncrypted).toBeTruthy();
    expect(row?.secretEncrypted).not.toContain(secret);
    const hashes = await t.db.select().from(userRecoveryCodes).where(eq(userRecoveryCodes.userId, session.user.id));
    expect(hashes).toHaveLength(10);
    for (const code of recoveryCodes) {
      expect(hashes.map((h) => h.codeHash)).not.toContain(code);
      expect(hashes.map((h) => h.codeHash)).not.toContain(code.replace('-', ''));
    }

    // Enrolling again while on is refused: it would silently replace the working authenticator.
    expect((await post('/auth/2fa/enrol', {}, session.token)).statusCode).toBe(409);
  });
});

describe('the login code step', () => {
  it('asks for the code after the right password, gives no session without it, and accepts each code once', async () => {
    const { email, password } = await createCompanyWithAdmin(t.db, { password: 'Quartzo-Lírio-884' });
    const { secret } = await enrol(await login(t.app, email, password));

    const first = await passwordStep(email, password);
    expect(first.statusCode).toBe(401);
    expect(first.cookies).toHaveLength(0);
    const body = first.json() as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['challenge', 'error']);
    expect(body.error).toBe('ERR_2FA_REQUIRED');
    // The challenge is not an access token.
    expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(String(body.challenge)) })).statusCode).toBe(403);

    // A wrong password still says only that.
    expect((await passwordStep(email, 'Quartzo-Errado-1')).json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });

    const code = currentTotp(secret, Date.now() + STEP_MS);
    const done = await post('/auth/login/2fa', { challenge: body.challenge, code });
    expect(done.statusCode).toBe(200);
    const session = done.json() as { token: string; user: { email: string }; recoveryCodes?: string[] };
    expect(session.user.email).toBe(email);
    expect(session.recoveryCodes).toBeUndefined();
    expect(done.cookies.find((c) => c.name === 'jrt')).toBeTruthy();
    expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(session.token) })).statusCode).toBe(200);

    // The same code again (someone watching) is refused.
    const replay = await post('/auth/login/2fa', { challenge: await challengeFor(email, password), code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ error: 'ERR_INVALID_2FA_CODE' });
  });

  it('refuses a forged challenge', async () => {
    const res = await post('/auth/login/2fa', { challenge: 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MX0.x', code: '123456' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
  });

  it('takes each recovery code once, with or without its dash', async () => {
    const { email, password } = await createCompanyWithAdmin(t.db, { password: 'Quartzo-Lírio-884' });
    const { recoveryCodes } = await enrol(await login(t.app, email, password));
    const [code] = recoveryCodes as [string];

    const used = await post('/auth/login/2fa', { challenge: await challengeFor(email, password), code: code.replace('-', '').toUpperCase() });
    expect(used.statusCode).toBe(200);
    const again = await post('/auth/login/2fa', { challenge: await challengeFor(email, password), code });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ error: 'ERR_INVALID_2FA_CODE' });

    const other = await post('/auth/login/2fa', { challenge: await challengeFor(email, password), code: recoveryCodes[1] });
    expect(other.statusCode).toBe(200);
    const token = (other.json() as { token: string }).token;
    expect((await t.app.inject({ method: 'GET', url: '/auth/2fa', headers: bearer(token) })).json()).toMatchObject({ recoveryCodesLeft: 8 });
  });

  it('is rate-limited like the password step: wrong codes lead to 429 with Retry-After', async () => {
    const { email, password } = await createCompanyWithAdmin(t.db, { password: 'Quartzo-Lírio-884' });
    const { secret } = await enrol(await login(t.app, email, password));
    const challenge = await challengeFor(email, password);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await post('/auth/login/2fa', { challenge, code: '000000' })).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const blocked = await post('/auth/login/2fa', { challenge, code: currentTotp(secret, Date.now() + STEP_MS) });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('turns off with a code; the password alone then logs in again', async () => {
    const { email, password } = await createCompanyWithAdmin(t.db, { password: 'Quartzo-Lírio-884' });
    const session = await login(t.app, email, password);
    const { recoveryCodes } = await enrol(session);
    expect((await post('/auth/2fa/disable', { code: '000000' }, session.token)).statusCode).toBe(401);
    expect((await post('/auth/2fa/disable', { code: recoveryCodes[0] }, session.token)).statusCode).toBe(200);
    expect((await passwordStep(email, password)).statusCode).toBe(200);
  });
});

describe('the company rule "require two-factor login"', () => {
  it('makes a user without it enrol at login, and only admins of that company (or the super user) set it', async () => {
    const own = await createCompanyWithAdmin(t.db, { password: 'Quartzo-Lírio-884' });
    const other = await createCompanyWithAdmin(t.db, { password: 'Quartzo-Lírio-884' });
    const admin = await login(t.app, own.email, own.password);
    const otherAdmin = await login(t.app, other.email, other.password);
    const user = await createPlainUser(t, own.company.id);
    const put = (token: string, payload: object) => t.app.inject({ method: 'PUT', url: '/auth/2fa/policy', headers: bearer(token), payload });

    expect((await put(user.token, { required: true })).statusCode).toBe(403);
    expect((await put(otherAdmin.token, { required: true, companyId: own.company.id })).statusCode).toBe(403);
    expect((await put(admin.token, { required: true })).json()).toEqual({ required: true });
    expect((await put((await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD)).token, { required: false, companyId: 999_999 })).statusCode).toBe(404);

    const res = await passwordStep(user.user.email, 'password-123');
    expect(res.statusCode).toBe(403);
    const { error, challenge } = res.json() as { error: string; challenge: string };
    expect(error).toBe('ERR_2FA_SETUP_REQUIRED');
    expect(res.cookies).toHaveLength(0);

    // The other company is not affected.
    expect((await passwordStep(other.email, other.password)).statusCode).toBe(200);

    const enrolment = await post('/auth/login/2fa/enrol', { challenge });
    expect(enrolment.statusCode).toBe(200);
    const { secret } = enrolment.json() as { secret: string };
    const done = await post('/auth/login/2fa', { challenge, code: currentTotp(secret) });
    expect(done.statusCode).toBe(200);
    const finished = done.json() as { token: string; recoveryCodes: string[] };
    expect(finished.recoveryCodes).toHaveLength(10);
    // While required, it cannot be turned off by the user.
    expect((await post('/auth/2fa/disable', { code: finished.recoveryCodes[0] }, finished.token)).statusCode).toBe(403);
    // From now on the password step asks for the code.
    expect((await passwordStep(user.user.email, 'password-123')).json()).toMatchObject({ error: 'ERR_2FA_REQUIRED' });
  });

  it('lets an admin reset a user of their company, not of another', async () => {
    const own = await createCompanyWithAdmin(t.db, { password: 'Quartzo-Lírio-884' });
    const other = await createCompanyWithAdmin(t.db, { password: 'Quartzo-Lírio-884' });
    const user = await createPlainUser(t, own.company.id);
    await enrol(user);
    const reset = (token: string) => t.app.inject({ method: 'DELETE', url: `/auth/2fa/users/${user.user.id}`, headers: bearer(token) });

    expect((await reset((await login(t.app, other.email, other.password)).token)).statusCode).toBe(404);
    expect((await reset(user.token)).statusCode).toBe(403);
    expect((await passwordStep(user.user.email, 'password-123')).statusCode).toBe(401);
    expect((await reset((await login(t.app, own.email, own.password)).token)).statusCode).toBe(200);
    const rows = await t.db.select().from(userTwoFactor).where(and(eq(userTwoFactor.userId, user.user.id)));
    expect(rows).toHaveLength(0);
    expect((await passwordStep(user.user.email, 'password-123')).statusCode).toBe(200);
  });
});
