import { COMPANY_SETTING_KEYS, DEFAULT_WEEK_SCHEDULE, PLAN_FLAGS, companySchema } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, companySettings, queues, users } from '../../db/schema/index.js';
import { bearer, createCompanyWithAdmin, login, type TestApp } from '../../../test/helpers.js';
import { createAdminTestApp, setupRoles, type Roles } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
});
afterAll(() => t.close());

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

const newCompany = (over: Record<string, unknown> = {}) => ({
  name: 'Acme Ltda',
  email: 'owner@acme.example',
  password: 'acme-pass',
  planId: 1,
  phone: '5511999990000',
  document: '12.345.678/0001-90',
  dueDate: '2030-01-31',
  recurrence: 'TRIMESTRAL',
  status: true,
  street: 'Rua A, 1',
  city: 'São Paulo',
  state: 'SP',
  campaignsEnabled: 'enabled',
  ...over,
});

describe('POST /companies', () => {
  it('creates the company, its settings and its first admin, who can log in', async () => {
    const res = await call(roles.super.token, 'POST', '/companies', newCompany());
    expect(res.statusCode).toBe(200);
    const company = companySchema.parse(res.json());
    expect(company).toMatchObject({ name: 'Acme Ltda', email: 'owner@acme.example', planId: 1, recurrence: 'TRIMESTRAL', dueDate: '2030-01-31', city: 'São Paulo' });
    expect(company.plan?.name).toBe('Plano 1');
    expect(company.schedules).toEqual(DEFAULT_WEEK_SCHEDULE);
    expect(Object.keys(company.companieSettings).sort()).toEqual([...COMPANY_SETTING_KEYS].sort());
    expect(company.companieSettings.campaignsEnabled).toBe('enabled');

    const owner = await login(t.app, 'owner@acme.example', 'acme-pass');
    // No admin name given: the e-mail's part before @, not the company's name (the top bar greets the user by it).
    expect(owner.user).toMatchObject({ companyId: company.id, profile: 'admin', super: false, name: 'owner' });
  });

  it("names the first admin with the form's admin name, validated as a user's name", async () => {
    const res = await call(roles.super.token, 'POST', '/companies', newCompany({ name: 'Named Admin Co', email: 'boss@named.example', adminName: '  Maria Souza ' }));
    expect(res.statusCode).toBe(200);
    const boss = await login(t.app, 'boss@named.example', 'acme-pass');
    expect(boss.user).toMatchObject({ companyId: res.json().id, profile: 'admin', name: 'Maria Souza' });

    const blank = await call(roles.super.token, 'POST', '/companies', newCompany({ name: 'Blank Admin Co', email: 'ana.lima@blank.example', adminName: '   ' }));
    expect(blank.statusCode).toBe(200);
    expect((await login(t.app, 'ana.lima@blank.example', 'acme-pass')).user.name).toBe('ana.lima');

    const bad = await call(roles.super.token, 'POST', '/companies', newCompany({ name: 'Bad Admin Co', email: 'x3@bad.example', adminName: 'M' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([{ path: 'adminName', message: 'Too Short!' }]);
    expect(await t.db.select().from(companies).where(eq(companies.name, 'Bad Admin Co'))).toHaveLength(0);
  });

  it('gives a company without a due date one recurrence period', async () => {
    const res = await call(roles.super.token, 'POST', '/companies', newCompany({ name: 'No Date', email: 'nodate@example.com', dueDate: '', recurrence: 'MENSAL' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('refuses duplicates and bad input with clear codes, creating nothing', async () => {
    const sameName = await call(roles.super.token, 'POST', '/companies', newCompany({ name: 'ACME LTDA', email: 'x1@example.com' }));
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json()).toEqual({ error: 'ERR_COMPANY_NAME_EXISTS' });
    const sameEmail = await call(roles.super.token, 'POST', '/companies', newCompany({ name: 'Other Co', email: 'owner@acme.example' }));
    expect(sameEmail.json()).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' });
    const noPlan = await call(roles.super.token, 'POST', '/companies', newCompany({ name: 'Planless', email: 'x2@example.com', planId: 99999 }));
    expect(noPlan.json()).toEqual({ error: 'ERR_NO_PLAN_FOUND' });
    const bad = await call(roles.super.token, 'POST', '/companies', { name: 'A', email: 'not-an-email', password: '1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Too Short!' },
        { path: 'email', message: 'Invalid email' },
        { path: 'planId', message: 'Required' },
      ]),
    );
    expect(await t.db.select().from(companies).where(eq(companies.name, 'Other Co'))).toHaveLength(0);
  });
});

describe('reading companies', () => {
  it('pages and searches for the super user; /companies/list is a bare array', async () => {
    const page = await call(roles.super.token, 'GET', '/companies?searchParam=acme&pageNumber=1');
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ count: 1, hasMore: false, companies: [{ name: 'Acme Ltda' }] });
    const list = await call(roles.super.token, 'GET', '/companies/list');
    expect(Array.isArray(list.json())).toBe(true);
    expect(list.json().map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([1, roles.companyId, roles.otherCompanyId]));
  });

  it("lets a company's users read their own company and plan, never another's", async () => {
    for (const token of [roles.admin.token, roles.user.token]) {
      expect((await call(token, 'GET', `/companies/${roles.companyId}`)).json()).toMatchObject({ id: roles.companyId });
      expect((await call(token, 'GET', `/companies/listPlan/${roles.companyId}`)).json()).toMatchObject({ id: 1, useWhatsapp: true });
    }
    for (const url of [`/companies/${roles.otherCompanyId}`, `/companies/listPlan/${roles.otherCompanyId}`, '/companies', '/companies/list']) {
      const res = await call(roles.admin.token, 'GET', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.body).not.toContain(String(roles.otherAdmin.user.email));
    }
    expect((await call(roles.super.token, 'GET', `/companies/${roles.otherCompanyId}`)).statusCode).toBe(200);
    expect((await call(roles.super.token, 'GET', '/companies/999999')).json()).toEqual({ error: 'ERR_NO_COMPANY_FOUND' });
  });
});

describe('GET /companies/listPlan/{companyId}', () => {
  it('answers the company with its plan nested (plan.useX) and the plan fields at the top (useX)', async () => {
    const body = (await call(roles.admin.token, 'GET', `/companies/listPlan/${roles.companyId}`)).json();
    expect(body.plan).toMatchObject({ id: 1, useCampaigns: expect.any(Boolean), useKanban: expect.any(Boolean) });
    for (const flag of PLAN_FLAGS) {
      expect(typeof body.plan[flag], flag).toBe('boolean');
      expect(body[flag], flag).toBe(body.plan[flag]);
    }
    expect(body).toMatchObject({ planId: 1, dueDate: '2999-01-01', companieSettings: { userRating: 'disabled' } });
  });
});

describe('PUT /companies/{id}', () => {
  it('updates what is sent, the campaigns setting, and the first admin password', async () => {
    const c = await createCompanyWithAdmin(t.db);
    await t.db.update(companies).set({ email: c.email }).where(eq(companies.id, c.company.id));
    const res = await call(roles.super.token, 'PUT', `/companies/${c.company.id}`, {
      status: false,
      dueDate: '2031-05-31',
      recurrence: 'ANUAL',
      campaignsEnabled: 'enabled',
      password: 'new-pass-1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: false, dueDate: '2031-05-31', recurrence: 'ANUAL', companieSettings: { campaignsEnabled: 'enabled' } });
    await login(t.app, c.email, 'new-pass-1');
  });

  it('keeps company 1 from expiring or being switched off', async () => {
    for (const payload of [{ dueDate: '2020-01-01' }, { status: false }]) {
      const res = await call(roles.super.token, 'PUT', '/companies/1', payload);
      expect(res.statusCode).toBe(400);
    }
    const [platform] = await t.db.select().from(companies).where(eq(companies.id, 1));
    expect(platform).toMatchObject({ dueDate: '2999-12-31', status: true });
    expect((await call(roles.super.token, 'PUT', '/companies/1', { city: 'Recife' })).statusCode).toBe(200);
  });

  it('is refused to everyone but the super user', async () => {
    for (const token of [roles.admin.token, roles.user.token, roles.otherAdmin.token]) {
      const res = await call(token, 'PUT', `/companies/${roles.companyId}`, { dueDate: '2999-01-01' });
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('POST /companies/{id}/renew', () => {
  it('adds the recurrence to the due date, clamping at the month end', async () => {
    const c = await createCompanyWithAdmin(t.db, { dueDate: '2031-01-31' });
    const res = await call(roles.super.token, 'POST', `/companies/${c.company.id}/renew`);
    expect(res.statusCode).toBe(200);
    expect(res.json().dueDate).toBe('2031-02-28');
    await t.db.update(companies).set({ recurrence: 'SEMESTRAL' }).where(eq(companies.id, c.company.id));
    expect((await call(roles.super.token, 'POST', `/companies/${c.company.id}/renew`)).json().dueDate).toBe('2031-08-28');
  });

  it('never renews company 1, and only the super user renews', async () => {
    expect((await call(roles.super.token, 'POST', '/companies/1/renew')).statusCode).toBe(400);
    expect((await call(roles.admin.token, 'POST', `/companies/${roles.companyId}/renew`)).statusCode).toBe(403);
    expect((await call(roles.super.token, 'POST', '/companies/999999/renew')).statusCode).toBe(404);
  });
});

describe('PUT /companies/{id}/schedules', () => {
  const schedules = DEFAULT_WEEK_SCHEDULE.map((d) => (d.weekdayEn === 'sunday' ? { ...d, startTimeA: '', endTimeA: '', startTimeB: '', endTimeB: '' } : d));

  it("lets the company's admin set its opening hours", async () => {
    const res = await call(roles.admin.token, 'PUT', `/companies/${roles.companyId}/schedules`, { schedules });
    expect(res.statusCode).toBe(200);
    expect(res.json().schedules).toEqual(schedules);
  });

  it('refuses plain users, other companies and bad times', async () => {
    expect((await call(roles.user.token, 'PUT', `/companies/${roles.companyId}/schedules`, { schedules })).statusCode).toBe(403);
    expect((await call(roles.otherAdmin.token, 'PUT', `/companies/${roles.companyId}/schedules`, { schedules })).statusCode).toBe(403);
    const bad = DEFAULT_WEEK_SCHEDULE.map((d) => ({ ...d, startTimeA: '25:00' }));
    expect((await call(roles.admin.token, 'PUT', `/companies/${roles.companyId}/schedules`, { schedules: bad })).statusCode).toBe(400);
    const [row] = await t.db.select({ schedules: companies.schedules }).from(companies).where(eq(companies.id, roles.companyId));
    expect(row?.schedules).toEqual(schedules);
  });
});

describe('DELETE /companies/{id}', () => {
  it('removes the company, its rows and its media folder', async () => {
    const c = await createCompanyWithAdmin(t.db);
    await t.db.insert(queues).values({ companyId: c.company.id, name: 'Vendas', color: '#111111' });
    const folder = join(t.app.ctx.config.dataDir, 'public', `company${c.company.id}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'avatar.jpg'), 'x');

    for (const token of [roles.admin.token, roles.user.token, roles.otherAdmin.token]) {
      expect((await call(token, 'DELETE', `/companies/${c.company.id}`)).statusCode).toBe(403);
    }
    const res = await call(roles.super.token, 'DELETE', `/companies/${c.company.id}`);
    expect(res.statusCode).toBe(200);
    expect(await t.db.select().from(users).where(eq(users.companyId, c.company.id))).toHaveLength(0);
    expect(await t.db.select().from(queues).where(eq(queues.companyId, c.company.id))).toHaveLength(0);
    expect(await t.db.select().from(companySettings).where(eq(companySettings.companyId, c.company.id))).toHaveLength(0);
    // The files go in the background (a bucket may hold many objects).
    await t.app.ctx.background.drain();
    expect(existsSync(folder)).toBe(false);
    expect((await call(roles.super.token, 'DELETE', `/companies/${c.company.id}`)).statusCode).toBe(404);
  });

  it('never deletes company 1', async () => {
    const res = await call(roles.super.token, 'DELETE', '/companies/1');
    expect(res.statusCode).toBe(403);
    expect(await t.db.select().from(companies).where(eq(companies.id, 1))).toHaveLength(1);
  });
});
