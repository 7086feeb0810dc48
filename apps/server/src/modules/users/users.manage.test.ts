import { usersPageSchema, type User } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queues, users, whatsapps } from '../../db/schema/index.js';
import { ADMIN_EMAIL, bearer, collect, login, nextEvent, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createPlainUser, openSocket, type Roles, rolesSuite } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
let port: number;
const sockets = rolesSuite((suite) => ({ t, roles, port } = suite));

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

describe('GET /users/ (paged)', () => {
  it('pages the company users by name and searches name and e-mail', async () => {
    for (let i = 0; i < 21; i++) await createPlainUser(t, roles.companyId, { name: `Zeca ${String(i).padStart(2, '0')}` });
    const first = await call(roles.admin.token, 'GET', '/users/?searchParam=zeca&pageNumber=1');
    expect(first.statusCode).toBe(200);
    const page = usersPageSchema.parse(first.json());
    expect(page).toMatchObject({ count: 21, hasMore: true });
    expect(page.users).toHaveLength(20);
    expect(page.users[0]?.name).toBe('Zeca 00');
    const second = (await call(roles.admin.token, 'GET', '/users?searchParam=zeca&pageNumber=2')).json();
    expect(second).toMatchObject({ count: 21, hasMore: false, users: [{ name: 'Zeca 20' }] });
    const byEmail = (await call(roles.admin.token, 'GET', `/users/?searchParam=${encodeURIComponent(roles.user.user.email)}`)).json();
    expect(byEmail.users.map((u: User) => u.id)).toEqual([roles.user.user.id]);
  });

  it("never lists another company's users; attendants search their own company (the transfer dialog)", async () => {
    const all = (await call(roles.otherAdmin.token, 'GET', '/users/?searchParam=zeca')).json();
    expect(all).toMatchObject({ count: 0, users: [] });
    const byUser = await call(roles.user.token, 'GET', `/users/?searchParam=${encodeURIComponent(roles.admin.user.email)}`);
    expect(byUser.statusCode).toBe(200);
    expect(byUser.json().users.map((u: User) => u.id)).toEqual([roles.admin.user.id]);
    const foreign = (await call(roles.otherAdmin.token, 'GET', `/users/?searchParam=${encodeURIComponent(roles.user.user.email)}`)).json();
    expect(foreign).toMatchObject({ count: 0, users: [] });
  });
});

describe('GET /users/list and /users/{id}', () => {
  it('lists the own company for anyone; another company only for the super user', async () => {
    const own = (await call(roles.user.token, 'GET', '/users/list')).json() as User[];
    expect(own.every((u) => u.companyId === roles.companyId)).toBe(true);
    expect((await call(roles.admin.token, 'GET', `/users/list?companyId=${roles.otherCompanyId}`)).statusCode).toBe(403);
    const bySuper = (await call(roles.super.token, 'GET', `/users/list?companyId=${roles.otherCompanyId}`)).json() as User[];
    expect(bySuper.map((u) => u.id)).toEqual([roles.otherAdmin.user.id]);
  });

  it("reads a user of the company; another company's user is 404", async () => {
    expect((await call(roles.user.token, 'GET', `/users/${roles.admin.user.id}`)).json()).toMatchObject({ id: roles.admin.user.id });
    const foreign = await call(roles.admin.token, 'GET', `/users/${roles.otherAdmin.user.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
  });
});

describe('PUT /users/{id}', () => {
  it('lets an admin set profile, permissions, hours and queues, and tells the company', async () => {
    const [queue] = await t.db.insert(queues).values({ companyId: roles.companyId, name: 'Suporte', color: '#00AA00' }).returning();
    const target = await createPlainUser(t, roles.companyId);
    const listener = await openSocket(port, roles.admin);
    sockets.push(listener);
    const heard = nextEvent<{ action: string; user: User }>(listener, `company-${roles.companyId}-user`);
    const res = await call(roles.admin.token, 'PUT', `/users/${target.user.id}`, {
      name: 'Maria Lima',
      allTicket: 'enabled',
      allowConnections: 'enabled',
      allowGroup: true,
      startWork: '08:00',
      endWork: '17:50',
      queueIds: [queue?.id],
      defaultTheme: 'dark',
      password: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Maria Lima', allTicket: 'enabled', allowGroup: true, endWork: '17:50', queues: [{ id: queue?.id, name: 'Suporte' }] });
    const event = await heard;
    expect(event).toMatchObject({ action: 'update', user: { id: target.user.id, name: 'Maria Lima' } });
  });

  it('lets a plain user edit their own profile fields and password', async () => {
    const me = await createPlainUser(t, roles.companyId);
    const res = await call(me.token, 'PUT', `/users/${me.user.id}`, { ...me.user, name: 'Novo Nome', password: 'brand-new-pw', queueIds: [] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Novo Nome', profile: 'user' });
    await login(t.app, me.user.email, 'brand-new-pw');
  });

  it('refuses a plain user their own permissions, profile or queues, and other users', async () => {
    const me = await createPlainUser(t, roles.companyId);
    for (const payload of [{ profile: 'admin' }, { allTicket: 'enabled' }, { startWork: '01:00' }, { queueIds: [1] }]) {
      const res = await call(me.token, 'PUT', `/users/${me.user.id}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
    }
    expect((await call(me.token, 'PUT', `/users/${roles.admin.user.id}`, { name: 'Hacked' })).statusCode).toBe(403);
    const [row] = await t.db.select().from(users).where(eq(users.id, me.user.id));
    expect(row).toMatchObject({ profile: 'user', allTicket: 'disabled', startWork: '00:00' });
  });

  it("answers 404 for another company's user and keeps e-mails unique", async () => {
    const foreign = await call(roles.admin.token, 'PUT', `/users/${roles.otherAdmin.user.id}`, { name: 'Stolen' });
    expect(foreign.statusCode).toBe(404);
    const dup = await call(roles.admin.token, 'PUT', `/users/${roles.user.user.id}`, { email: ADMIN_EMAIL.toUpperCase() });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' });
    const badQueue = await call(roles.otherAdmin.token, 'PUT', `/users/${roles.otherAdmin.user.id}`, { queueIds: [999999] });
    expect(badQueue.statusCode).toBe(400);
  });

  it("accepts the company's own connection as default, never another company's", async () => {
    const [own, foreign] = await t.db
      .insert(whatsapps)
      .values([
        { companyId: roles.companyId, name: 'Own', token: 'a'.repeat(30) },
        { companyId: roles.otherCompanyId, name: 'Foreign', token: 'b'.repeat(30) },
      ])
      .returning();
    const ok = await call(roles.admin.token, 'PUT', `/users/${roles.user.user.id}`, { whatsappId: own?.id });
    expect(ok.json()).toMatchObject({ whatsappId: own?.id });
    const bad = await call(roles.admin.token, 'PUT', `/users/${roles.user.user.id}`, { whatsappId: foreign?.id });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([{ path: 'whatsappId', message: 'unknown whatsappId' }]);
  });

  it('never demotes the last admin, and only the super user edits the super user', async () => {
    const res = await call(roles.otherAdmin.token, 'PUT', `/users/${roles.otherAdmin.user.id}`, { profile: 'user' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_LAST_ADMIN');

    const platformAdmin = await createPlainUser(t, 1, { profile: 'admin' });
    const onSuper = await call(platformAdmin.token, 'PUT', `/users/${roles.super.user.id}`, { password: 'taken-over' });
    expect(onSuper.statusCode).toBe(403);
    expect((await call(roles.super.token, 'PUT', `/users/${roles.super.user.id}`, { name: 'Root' })).json()).toMatchObject({ name: 'Root', super: true });
  });
});

describe('DELETE /users/{id}', () => {
  let victim: LoggedIn;
  beforeAll(async () => {
    victim = await createPlainUser(t, roles.companyId);
  });

  it('is refused to plain users and to other companies', async () => {
    expect((await call(roles.user.token, 'DELETE', `/users/${victim.user.id}`)).statusCode).toBe(403);
    expect((await call(roles.otherAdmin.token, 'DELETE', `/users/${victim.user.id}`)).statusCode).toBe(404);
    expect(await t.db.select().from(users).where(eq(users.id, victim.user.id))).toHaveLength(1);
  });

  it('deletes a user, whose token stops working, and tells the company', async () => {
    const listener = await openSocket(port, roles.admin);
    const other = await openSocket(port, roles.otherAdmin);
    sockets.push(listener, other);
    const leaked = collect(other, `company-${roles.otherCompanyId}-user`);
    const heard = nextEvent(listener, `company-${roles.companyId}-user`);
    expect((await call(roles.admin.token, 'DELETE', `/users/${victim.user.id}`)).statusCode).toBe(200);
    expect(await heard).toEqual({ action: 'delete', userId: victim.user.id });
    expect((await call(victim.token, 'GET', '/auth/me')).statusCode).toBe(403);
    await sleep(100);
    expect(leaked.filter((e) => JSON.stringify(e).includes(String(victim.user.id)))).toHaveLength(0);
  });

  it('never deletes the last admin or the super user', async () => {
    const last = await call(roles.otherAdmin.token, 'DELETE', `/users/${roles.otherAdmin.user.id}`);
    expect(last.statusCode).toBe(400);
    expect(last.json().error).toBe('ERR_LAST_ADMIN');
    const platformAdmin = await createPlainUser(t, 1, { profile: 'admin' });
    expect((await call(platformAdmin.token, 'DELETE', `/users/${roles.super.user.id}`)).statusCode).toBe(403);
    expect((await call(roles.super.token, 'DELETE', `/users/${roles.super.user.id}`)).statusCode).toBe(403);
  });
});

describe('PUT /users/toggleChangeWidht/{userId}', () => {
  it('sets the own width within 404–700 and answers the user', async () => {
    const res = await call(roles.user.token, 'PUT', `/users/toggleChangeWidht/${roles.user.user.id}`, { defaultTicketsManagerWidth: 620 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: roles.user.user.id, defaultTicketsManagerWidth: 620 });
    for (const width of [403, 701]) {
      expect((await call(roles.user.token, 'PUT', `/users/toggleChangeWidht/${roles.user.user.id}`, { defaultTicketsManagerWidth: width })).statusCode).toBe(400);
    }
  });

  it("is refused on a colleague to plain users, and on another company's user", async () => {
    expect((await call(roles.user.token, 'PUT', `/users/toggleChangeWidht/${roles.admin.user.id}`, { defaultTicketsManagerWidth: 500 })).statusCode).toBe(403);
    expect((await call(roles.admin.token, 'PUT', `/users/toggleChangeWidht/${roles.otherAdmin.user.id}`, { defaultTicketsManagerWidth: 500 })).statusCode).toBe(404);
  });
});

describe('maxOpenTickets (attendant capacity)', () => {
  it('is set by an admin on create and update (0–999, digits too; empty or null is unlimited) and read back', async () => {
    // The other company: the first tests used up this one's plan user limit.
    const created = await call(roles.otherAdmin.token, 'POST', '/users', { name: 'Capaz', email: `capaz-${Date.now()}@example.com`, password: 'secret-pw', maxOpenTickets: 3 });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id as number;
    expect(created.json()).toMatchObject({ maxOpenTickets: 3 });
    expect((await call(roles.otherAdmin.token, 'PUT', `/users/${id}`, { maxOpenTickets: '12' })).json()).toMatchObject({ maxOpenTickets: 12 });
    expect((await call(roles.otherAdmin.token, 'GET', `/users/${id}`)).json()).toMatchObject({ maxOpenTickets: 12 });
    expect((await call(roles.otherAdmin.token, 'PUT', `/users/${id}`, { maxOpenTickets: '' })).json()).toMatchObject({ maxOpenTickets: null });
    for (const bad of [-1, 1000, 2.5, 'many']) {
      const res = await call(roles.otherAdmin.token, 'PUT', `/users/${id}`, { maxOpenTickets: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    const [row] = await t.db.select().from(users).where(eq(users.id, id));
    expect(row?.maxOpenTickets).toBeNull();
  });

  it("is refused to a plain user on themself, and on another company's user", async () => {
    const me = await createPlainUser(t, roles.companyId);
    expect((await call(me.token, 'PUT', `/users/${me.user.id}`, { maxOpenTickets: 50 })).statusCode).toBe(403);
    const foreign = await call(roles.admin.token, 'PUT', `/users/${roles.otherAdmin.user.id}`, { maxOpenTickets: 1 });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
    const rows = await t.db.select({ max: users.maxOpenTickets }).from(users).where(eq(users.id, roles.otherAdmin.user.id));
    expect(rows[0]?.max).toBeNull();
    const [mine] = await t.db.select({ max: users.maxOpenTickets }).from(users).where(eq(users.id, me.user.id));
    expect(mine?.max).toBeNull();
  });
});
