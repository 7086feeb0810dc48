import { SIGNUP_TRIAL_DAYS } from '@balcao/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, companySettings, plans, settings, users } from '../../db/schema/index.js';
import { createTestApp, login, type TestApp } from '../../../test/helpers.js';
import { localDatePlusDays } from './service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const body = (over: Record<string, unknown> = {}) => ({
  companyName: 'Padaria Central',
  name: 'Maria Silva',
  email: 'Maria@Padaria.example',
  password: 'secret-123',
  phone: '+55 11 99999-0000',
  planId: 1,
  ...over,
});

const counts = async () => {
  const [c] = await t.db.select({ n: count() }).from(companies);
  const [u] = await t.db.select({ n: count() }).from(users);
  return { companies: c?.n, users: u?.n };
};

const setUserCreation = (value: string) => t.db.update(settings).set({ value }).where(eq(settings.key, 'userCreation'));

describe('POST /auth/signup', () => {
  it('creates the company (trial), its admin and its settings; the admin can then log in', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/auth/signup', payload: body() });
    expect(res.statusCode).toBe(200);
    const out = res.json();
    expect(out.dueDate).toBe(localDatePlusDays(SIGNUP_TRIAL_DAYS));
    expect(out).toMatchObject({ companyId: expect.any(Number), userId: expect.any(Number) });

    const [company] = await t.db.select().from(companies).where(eq(companies.id, out.companyId));
    expect(company).toMatchObject({ name: 'Padaria Central', recurrence: 'MENSAL', status: true, planId: 1 });
    const [cs] = await t.db.select().from(companySettings).where(eq(companySettings.companyId, out.companyId));
    expect(cs?.scheduleType).toBe('disabled');

    const session = await login(t.app, 'maria@padaria.example', 'secret-123');
    expect(session.user).toMatchObject({ id: out.userId, profile: 'admin', super: false, companyId: out.companyId });
    expect(session.user.company.companieSettings.userRating).toBe('disabled');
  });

  it('refuses a taken e-mail and a taken company name with 409', async () => {
    const email = await t.app.inject({ method: 'POST', url: '/auth/signup', payload: body({ companyName: 'Another Co' }) });
    expect(email.statusCode).toBe(409);
    expect(email.json()).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' });
    const name = await t.app.inject({ method: 'POST', url: '/auth/signup', payload: body({ email: 'other@padaria.example', companyName: 'padaria central' }) });
    expect(name.statusCode).toBe(409);
    expect(name.json()).toEqual({ error: 'ERR_COMPANY_NAME_EXISTS' });
  });

  it('refuses unknown and private plans', async () => {
    const unknown = await t.app.inject({ method: 'POST', url: '/auth/signup', payload: body({ email: 'x1@example.com', companyName: 'X1', planId: 999 }) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: 'ERR_NO_PLAN_FOUND' });
    const [priv] = await t.db.insert(plans).values({ name: 'Private', isPublic: false }).returning();
    const res = await t.app.inject({ method: 'POST', url: '/auth/signup', payload: body({ email: 'x2@example.com', companyName: 'X2', planId: priv?.id }) });
    expect(res.statusCode).toBe(400);
  });

  it('answers 400 ERR_VALIDATION and creates nothing for missing fields, over-long strings or malformed JSON', async () => {
    const before = await counts();
    const missing = await t.app.inject({ method: 'POST', url: '/auth/signup', payload: { email: 'y@example.com' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('ERR_VALIDATION');
    expect(missing.json().issues.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(['companyName', 'name', 'password']));

    const long = await t.app.inject({ method: 'POST', url: '/auth/signup', payload: body({ email: 'y@example.com', companyName: 'x'.repeat(51) }) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toBe('ERR_VALIDATION');

    const malformed = await t.app.inject({ method: 'POST', url: '/auth/signup', headers: { 'content-type': 'application/json' }, payload: '{"companyName":' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe('ERR_VALIDATION');

    expect(await counts()).toEqual(before);
  });

  it('answers 403 ERR_USER_CREATION_DISABLED and creates nothing when userCreation is disabled', async () => {
    await setUserCreation('disabled');
    try {
      const before = await counts();
      const res = await t.app.inject({ method: 'POST', url: '/auth/signup', payload: body({ email: 'z@example.com', companyName: 'Z Co' }) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_USER_CREATION_DISABLED' });
      expect(await counts()).toEqual(before);
    } finally {
      await setUserCreation('enabled');
    }
  });
});
