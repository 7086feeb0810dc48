import { userSchema } from '@balcao/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plans, queues, users } from '../../db/schema/index.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createCompanyWithAdmin, createTestApp, login, type LoggedIn, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: LoggedIn;
let companyId: number;
beforeAll(async () => {
  t = await createTestApp();
  const [plan] = await t.db.insert(plans).values({ name: 'Tiny', users: 2, connections: 1, queues: 1 }).returning();
  const c = await createCompanyWithAdmin(t.db, { planId: plan?.id });
  companyId = c.company.id;
  admin = await login(t.app, c.email, c.password);
});
afterAll(() => t.close());

const newUser = (over: Record<string, unknown> = {}) => ({ name: 'Ana Souza', email: 'ana@example.com', password: 'ana-secret-91', profile: 'user', ...over });
const usersOf = async (id: number) => (await t.db.select({ n: count() }).from(users).where(eq(users.companyId, id)))[0]?.n;

describe('POST /users', () => {
  it('refuses a duplicate e-mail (of another company) with 409', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/users', headers: bearer(admin.token), payload: newUser({ email: ADMIN_EMAIL }) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' });
  });

  it('creates a user in the caller company, ignoring any companyId in the body', async () => {
    const [queue] = await t.db.insert(queues).values({ companyId, name: 'Vendas', color: '#7C7C7C' }).returning();
    const res = await t.app.inject({
      method: 'POST',
      url: '/users',
      headers: bearer(admin.token),
      payload: newUser({ companyId: 1, super: true, queueIds: [queue?.id], startWork: '08:00', endWork: '18:00' }),
    });
    expect(res.statusCode).toBe(200);
    const user = res.json();
    expect(userSchema.safeParse(user).success).toBe(true);
    expect(user).toMatchObject({ companyId, super: false, profile: 'user', startWork: '08:00', queues: [{ id: queue?.id, name: 'Vendas' }] });
    expect(user).not.toHaveProperty('password');
    const session = await login(t.app, 'ana@example.com', 'ana-secret-91').catch(() => undefined);
    // 08:00–18:00: may legitimately be out of hours when the suite runs at night.
    if (session) expect(session.user.companyId).toBe(companyId);
  });

  it('enforces the plan user limit with 403 ERR_USER_LIMIT_REACHED', async () => {
    expect(await usersOf(companyId)).toBe(2);
    const res = await t.app.inject({ method: 'POST', url: '/users', headers: bearer(admin.token), payload: newUser({ email: 'third@example.com' }) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_USER_LIMIT_REACHED' });
    expect(await usersOf(companyId)).toBe(2);
  });

  it('refuses plain users, other companies’ queues and bad bodies', async () => {
    const other = await createCompanyWithAdmin(t.db);
    const otherAdmin = await login(t.app, other.email, other.password);
    const [foreignQueue] = await t.db.insert(queues).values({ companyId, name: 'Private', color: '#000000' }).returning();
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/users',
      headers: bearer(otherAdmin.token),
      payload: newUser({ email: 'spy@example.com', queueIds: [foreignQueue?.id] }),
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error).toBe('ERR_VALIDATION');

    const plain = await t.app.inject({ method: 'POST', url: '/users', headers: bearer(otherAdmin.token), payload: newUser({ email: 'plain@example.com' }) });
    expect(plain.statusCode).toBe(200);
    const plainSession = await login(t.app, 'plain@example.com', 'ana-secret-91');
    const denied = await t.app.inject({ method: 'POST', url: '/users', headers: bearer(plainSession.token), payload: newUser({ email: 'x@example.com' }) });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'ERR_NO_PERMISSION' });

    const before = await usersOf(other.company.id);
    const longName = await t.app.inject({ method: 'POST', url: '/users', headers: bearer(otherAdmin.token), payload: newUser({ email: 'l@example.com', name: 'x'.repeat(51) }) });
    expect(longName.statusCode).toBe(400);
    expect(longName.json().error).toBe('ERR_VALIDATION');
    const shortPw = await t.app.inject({ method: 'POST', url: '/users', headers: bearer(otherAdmin.token), payload: newUser({ email: 'l@example.com', password: '123' }) });
    expect(shortPw.statusCode).toBe(400);
    expect(await usersOf(other.company.id)).toBe(before);
  });

  it('lets the super user create users in its own company', async () => {
    const su = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const res = await t.app.inject({ method: 'POST', url: '/users', headers: bearer(su.token), payload: newUser({ email: 'staff@balcao.local' }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().companyId).toBe(1);
  });
});
