import { PLAN_FLAGS, planSchema } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, plans } from '../../db/schema/index.js';
import { bearer, collect, createTestApp, nextEvent, sleep, type TestApp } from '../../../test/helpers.js';
import { createAdminTestApp, createPlainUser, listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';

describe('GET /plans/list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.db.insert(plans).values({ name: 'Privado', users: 1, connections: 1, queues: 1, amount: '10', isPublic: false });
  });
  afterAll(() => t.close());

  it('answers the public plans to a visitor, as a bare array, without private ones', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/plans/list?listPublic=false' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { name: string; isPublic: boolean; useWhatsapp: boolean }[];
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((p) => p.name)).toContain('Plano 1');
    expect(body.map((p) => p.name)).not.toContain('Privado');
    expect(body.every((p) => p.isPublic)).toBe(true);
    expect(body[0]).toMatchObject({ useWhatsapp: true });
  });
});

describe('plans CRUD (super user only)', () => {
  let t: TestApp;
  let roles: Roles;
  beforeAll(async () => {
    t = await createAdminTestApp();
    roles = await setupRoles(t);
  });
  afterAll(() => t.close());

  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  it('creates a plan with every flag and the public flag defaulting to true', async () => {
    const res = await call(roles.super.token, 'POST', '/plans', { name: 'Pro', users: 5, connections: 2, queues: 4, amount: '49,90' });
    expect(res.statusCode).toBe(200);
    const plan = planSchema.parse(res.json());
    expect(plan).toMatchObject({ name: 'Pro', users: 5, connections: 2, queues: 4, amount: '49.90', isPublic: true });
    for (const flag of PLAN_FLAGS) expect(plan[flag]).toBe(true);

    const all = await call(roles.super.token, 'GET', '/plans/all');
    expect(all.json().map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['Plano 1', 'Pro']));
  });

  it('tells the super users about plan changes, and nobody else', async () => {
    const port = await listen(t);
    const superSocket = await openSocket(port, roles.super);
    const platformAdmin = await openSocket(port, await createPlainUser(t, 1, { profile: 'admin' }));
    try {
      const leaked = collect(platformAdmin, 'company-1-plan');
      const heard = nextEvent(superSocket, 'company-1-plan');
      const res = await call(roles.super.token, 'POST', '/plans', { name: 'Heard', users: 1, connections: 1, queues: 1 });
      expect(await heard).toEqual({ action: 'create', record: res.json() });
      await sleep(100);
      expect(leaked).toHaveLength(0);
    } finally {
      superSocket.close();
      platformAdmin.close();
    }
  });

  it('updates only what is sent, and answers 404 for an unknown plan', async () => {
    const [plan] = await t.db.insert(plans).values({ name: 'Basic', users: 1, connections: 1, queues: 1 }).returning();
    const res = await call(roles.super.token, 'PUT', `/plans/${plan?.id}`, { useKanban: false, isPublic: false, users: 3 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Basic', useKanban: false, isPublic: false, users: 3, useCampaigns: true });
    expect((await call(roles.super.token, 'GET', `/plans/${plan?.id}`)).json()).toMatchObject({ useKanban: false });
    expect((await call(roles.super.token, 'PUT', '/plans/999999', { users: 1 })).json()).toEqual({ error: 'ERR_NO_PLAN_FOUND' });
  });

  it("answers 400 with the form's messages for bad input, and creates nothing", async () => {
    const res = await call(roles.super.token, 'POST', '/plans', { name: 'P', users: -1, connections: 1, queues: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
    expect(res.json().issues).toEqual(expect.arrayContaining([{ path: 'name', message: 'Too Short!' }, expect.objectContaining({ path: 'users' })]));
    expect(await t.db.select().from(plans).where(eq(plans.name, 'P'))).toHaveLength(0);
  });

  it('refuses to delete a plan used by a company (409 ERR_PLAN_IN_USE) and deletes an unused one', async () => {
    const inUse = await call(roles.super.token, 'DELETE', '/plans/1');
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toEqual({ error: 'ERR_PLAN_IN_USE' });
    const [spare] = await t.db.insert(plans).values({ name: 'Spare' }).returning();
    expect((await call(roles.super.token, 'DELETE', `/plans/${spare?.id}`)).statusCode).toBe(200);
    expect((await call(roles.super.token, 'DELETE', `/plans/${spare?.id}`)).statusCode).toBe(404);
    const [company] = await t.db.select({ planId: companies.planId }).from(companies).where(eq(companies.id, roles.companyId));
    expect(company?.planId).toBe(1);
  });

  it('refuses every plan call to admins, plain users and other companies (403), and to visitors (401)', async () => {
    const [plan] = await t.db.insert(plans).values({ name: 'Target', users: 7 }).returning();
    for (const token of [roles.admin.token, roles.user.token, roles.otherAdmin.token]) {
      for (const [method, url, payload] of [
        ['GET', '/plans/all'],
        ['GET', `/plans/${plan?.id}`],
        ['POST', '/plans', { name: 'Hacked', users: 1, connections: 1, queues: 1 }],
        ['PUT', `/plans/${plan?.id}`, { users: 999 }],
        ['DELETE', `/plans/${plan?.id}`],
      ] as const) {
        const res = await call(token, method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
      }
    }
    expect((await t.app.inject({ method: 'GET', url: '/plans/all' })).statusCode).toBe(401);
    const [after] = await t.db.select().from(plans).where(eq(plans.id, plan?.id ?? 0));
    expect(after?.users).toBe(7);
    expect(await t.db.select().from(plans).where(eq(plans.name, 'Hacked'))).toHaveLength(0);
  });
});
