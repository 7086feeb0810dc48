import { COMPANY_SETTING_KEYS, PLAN_FLAGS, sessionUserSchema } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, users } from '../../db/schema/index.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createCompanyWithAdmin, createTestApp, login, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  // Generous limits here; the rate-limit test builds its own app.
  t = await createTestApp({ LOGIN_MAX_PER_IP: '1000', LOGIN_MAX_PER_EMAIL: '1000' });
});
afterAll(() => t.close());

const hhmmPlus = (hours: number) => {
  const d = new Date(Date.now() + hours * 3600_000);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

describe('POST /auth/login', () => {
  it('answers the token and the full session user, with plan and flat companieSettings', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: ADMIN_EMAIL.toUpperCase(), password: ADMIN_PASSWORD } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(typeof body.token).toBe('string');
    expect(sessionUserSchema.safeParse(body.user).success).toBe(true);
    expect(body.user).toMatchObject({ email: ADMIN_EMAIL, profile: 'admin', super: true, companyId: 1, queues: [] });
    expect(body.user.company).toMatchObject({ id: 1, dueDate: '2999-12-31' });
    expect(body.user.company.plan).toMatchObject({ name: 'Plano 1', users: 10 });
    for (const flag of PLAN_FLAGS) expect(body.user.company.plan[flag]).toBe(true);
    expect(Array.isArray(body.user.company.companieSettings)).toBe(false);
    expect(Object.keys(body.user.company.companieSettings).sort()).toEqual([...COMPANY_SETTING_KEYS].sort());
    expect(body.user.company.companieSettings.scheduleType).toBe('disabled');
    expect(body.user).not.toHaveProperty('passwordHash');

    const cookie = res.cookies.find((c) => c.name === 'jrt');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();

    const [company] = await t.db.select({ lastLogin: companies.lastLogin }).from(companies).where(eq(companies.id, 1));
    expect(company?.lastLogin).toBeInstanceOf(Date);
  });

  it('refuses a wrong password and an unknown e-mail with the same 401', async () => {
    const wrong = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: ADMIN_EMAIL, password: 'nope-nope' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'ghost@example.com', password: 'nope-nope' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });
    expect(wrong.cookies).toHaveLength(0);
  });

  it('refuses a non-super user outside startWork–endWork, but not the super user', async () => {
    const { email, password } = await createCompanyWithAdmin(t.db, { userFields: { startWork: hhmmPlus(2), endWork: hhmmPlus(3) } });
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'ERR_OUT_OF_HOURS' });

    await t.db.update(users).set({ startWork: hhmmPlus(2), endWork: hhmmPlus(3) }).where(eq(users.email, ADMIN_EMAIL));
    try {
      await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    } finally {
      await t.db.update(users).set({ startWork: '00:00', endWork: '23:59' }).where(eq(users.email, ADMIN_EMAIL));
    }
  });

  it('still gives a token to a company whose due date has passed', async () => {
    const { email, password } = await createCompanyWithAdmin(t.db, { dueDate: '2020-01-01' });
    const session = await login(t.app, email, password);
    expect(session.token).toBeTruthy();
    expect(session.user.company.dueDate).toBe('2020-01-01');
  });

  it('answers 400 ERR_VALIDATION for bad bodies and malformed JSON', async () => {
    const missing = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: ADMIN_EMAIL } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('ERR_VALIDATION');
    expect(missing.json().issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'password' })]));

    const malformed = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.c", ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe('ERR_VALIDATION');
  });
});

describe('refresh and logout', () => {
  it('rotates the refresh cookie and refuses a used one with 401', async () => {
    const session = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const first = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', cookies: { jrt: session.refreshCookie } });
    expect(first.statusCode).toBe(200);
    expect(first.json().user.id).toBe(session.user.id);
    const rotated = first.cookies.find((c) => c.name === 'jrt');
    expect(rotated?.value).toBeTruthy();
    expect(rotated?.value).not.toBe(session.refreshCookie);

    const replay = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', cookies: { jrt: session.refreshCookie } });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });

    const next = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', cookies: { jrt: rotated?.value ?? '' } });
    expect(next.statusCode).toBe(200);
  });

  it('answers 401 without a cookie and with a forged one', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/auth/refresh_token' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    const forged = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', cookies: { jrt: 'garbage.token.here' } });
    expect(forged.statusCode).toBe(401);
  });

  it('logout revokes the refresh token and the access token', async () => {
    const session = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const out = await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: bearer(session.token) });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'jrt')?.value).toBe('');

    const refresh = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', cookies: { jrt: session.refreshCookie } });
    expect(refresh.statusCode).toBe(401);
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(session.token) });
    expect(me.statusCode).toBe(403);
    expect(me.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
  });
});

describe('GET /auth/me', () => {
  it('401 without a header, 403 ERR_SESSION_EXPIRED with a garbage token, the user with a good one', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/auth/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });

    const garbage = await t.app.inject({ method: 'GET', url: '/auth/me', headers: bearer('not-a-jwt') });
    expect(garbage.statusCode).toBe(403);
    expect(garbage.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });

    const session = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(session.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: session.user.id, super: true, company: { id: 1 } });
  });
});

describe('login rate limit', () => {
  it('answers 429 ERR_TOO_MANY_REQUESTS past the per-e-mail limit, and per IP', async () => {
    const limited = await createTestApp({ LOGIN_MAX_PER_EMAIL: '3', LOGIN_MAX_PER_IP: '6' });
    try {
      const attempt = (email: string) =>
        limited.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'wrong-password' } });
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await attempt('victim@example.com')).statusCode);
      expect(codes).toEqual([401, 401, 401, 429]);
      const tooMany = await attempt('victim@example.com');
      expect(tooMany.json()).toEqual({ error: 'ERR_TOO_MANY_REQUESTS' });

      // Other e-mails from the same IP: the per-IP limit (6) is reached on the 7th request overall.
      expect((await attempt('other1@example.com')).statusCode).toBe(401);
      expect((await attempt('other2@example.com')).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
