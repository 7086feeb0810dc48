import type { AuditEntry, AuditLogPage } from '@balcao/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../../test/connections.js';
import { bearer, type TestApp } from '../../../test/helpers.js';
import { multipart } from '../../../test/multipart.js';
import { createAdminTestApp, setupRoles, type Roles } from '../../../test/roles.js';

/** Issue 18 (audit log): every administrative change recorded with who, where and what; read-only; per company. */
let t: TestApp;
let roles: Roles;
beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
});
afterAll(() => t.close());

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { ...bearer(token), 'user-agent': 'audit-test/1.0' }, payload, remoteAddress: '198.51.100.77' });

async function log(token: string, query = ''): Promise<AuditLogPage> {
  const res = await call(token, 'GET', `/audit-log${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as AuditLogPage;
}

/** The newest entry about `entity` `id` with `action`, as the super user sees it. */
async function entry(entity: string, action: string, id: number | string): Promise<AuditEntry> {
  const { entries } = await log(roles.super.token, `?entity=${entity}&action=${action}`);
  const found = entries.find((e) => e.entityId === String(id));
  if (!found) throw new Error(`no ${entity} ${action} entry for ${id}`);
  return found;
}

describe('audit entries per kind of change', () => {
  it('users and their permissions: create, update (before/after of changed fields only), delete; passwords redacted', async () => {
    const created = await call(roles.admin.token, 'POST', '/users', { name: 'Auditada', email: 'auditada@example.com', password: 'Granito-Ocre-5521', profile: 'user' });
    expect(created.statusCode).toBe(200);
    const userId = (created.json() as { id: number }).id;
    const create = await entry('user', 'create', userId);
    expect(create).toMatchObject({ companyId: roles.companyId, userId: roles.admin.user.id, userName: roles.admin.user.name, ip: '198.51.100.77', userAgent: 'audit-test/1.0' });
    expect(create.changes.email).toEqual({ after: 'auditada@example.com' });
    expect(create.changes.passwordHash).toEqual({ after: '[redacted]' });

    const queue = await call(roles.admin.token, 'POST', '/queue', { name: 'Auditoria', color: '#123abc' });
    const queueId = (queue.json() as { id: number }).id;
    const updated = await call(roles.admin.token, 'PUT', `/users/${userId}`, {
      profile: 'admin',
      allTicket: 'enabled',
      queueIds: [queueId],
      password: 'Basalto-Verde-7713',
    });
    expect(updated.statusCode).toBe(200);
    const update = await entry('user', 'update', userId);
    expect(update.changes).toEqual({
      profile: { before: 'user', after: 'admin' },
      allTicket: { before: 'disabled', after: 'enabled' },
      queueIds: { before: [], after: [queueId] },
      passwordHash: { before: '[redacted]', after: '[redacted]' },
    });
    expect(JSON.stringify(update)).not.toContain('Basalto');

    expect((await call(roles.admin.token, 'DELETE', `/users/${userId}`)).statusCode).toBe(200);
    const removed = await entry('user', 'delete', userId);
    expect(removed.changes.email).toEqual({ before: 'auditada@example.com' });
    expect(removed.companyId).toBe(roles.companyId);
  });

  it('queues, company settings, platform settings, plans and companies', async () => {
    const queue = await call(roles.admin.token, 'POST', '/queue', { name: 'Vendas', color: '#a1b2c3' });
    const queueId = (queue.json() as { id: number }).id;
    await call(roles.admin.token, 'PUT', `/queue/${queueId}`, { name: 'Vendas B2B' });
    expect((await entry('queue', 'update', queueId)).changes).toEqual({ name: { before: 'Vendas', after: 'Vendas B2B' } });
    await call(roles.admin.token, 'DELETE', `/queue/${queueId}`);
    expect((await entry('queue', 'delete', queueId)).changes.name).toEqual({ before: 'Vendas B2B' });

    expect((await call(roles.admin.token, 'PUT', '/companySettings', { column: 'scheduleType', data: 'company' })).statusCode).toBe(200);
    expect((await entry('companySetting', 'update', roles.companyId)).changes).toEqual({ scheduleType: { before: 'disabled', after: 'company' } });

    expect((await call(roles.super.token, 'PUT', '/settings/appName', { value: 'Balcão Auditado' })).statusCode).toBe(200);
    expect((await entry('setting', 'update', 'appName')).changes.value).toMatchObject({ after: 'Balcão Auditado' });

    const plan = await call(roles.super.token, 'POST', '/plans', { name: 'Auditado', users: 3, connections: 3, queues: 3 });
    const planId = (plan.json() as { id: number }).id;
    await call(roles.super.token, 'PUT', `/plans/${planId}`, { users: 7 });
    expect((await entry('plan', 'update', planId)).changes).toEqual({ users: { before: 3, after: 7 } });

    await call(roles.super.token, 'PUT', `/companies/${roles.otherCompanyId}`, { phone: '5511988887777' });
    const company = await entry('company', 'update', roles.otherCompanyId);
    // A change the super user makes to another company belongs to that company's log.
    expect(company.companyId).toBe(roles.otherCompanyId);
    expect(company.changes.phone).toEqual({ before: null, after: '5511988887777' });
  });

  it('logins and failed logins, with the address they came from', async () => {
    const email = roles.user.user.email;
    await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'Wrong-Guess-0001' }, remoteAddress: '203.0.113.9' });
    const failed = await entry('session', 'loginFailed', roles.user.user.id);
    expect(failed).toMatchObject({ companyId: roles.companyId, userId: roles.user.user.id, ip: '203.0.113.9' });
    expect(JSON.stringify(failed)).not.toContain('Wrong-Guess');
    await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: roles.admin.user.email, password: 'password-123' }, remoteAddress: '203.0.113.10' });
    expect(await entry('session', 'login', roles.admin.user.id)).toMatchObject({ ip: '203.0.113.10' });
  });

  it('connection changes, with its tokens redacted', async () => {
    const conn = await createConnection(t.db, roles.companyId, { name: 'Página Auditada' });
    expect((await call(roles.admin.token, 'PUT', `/whatsapp/${conn.id}`, { name: 'Página Renomeada' })).statusCode).toBe(200);
    expect((await entry('whatsapp', 'update', conn.id)).changes.name).toEqual({ before: 'Página Auditada', after: 'Página Renomeada' });
    expect((await call(roles.admin.token, 'DELETE', `/whatsapp/${conn.id}`)).statusCode).toBe(200);
    const removed = await entry('whatsapp', 'delete', conn.id);
    expect(removed.changes.token).toEqual({ before: '[redacted]' });
    expect(removed.changes.facebookPageToken).toEqual({ before: '[redacted]' });
    expect(JSON.stringify(removed)).not.toContain(conn.token);
    expect(JSON.stringify(removed)).not.toContain(String(conn.facebookPageToken));
  });

  it('branding uploads', async () => {
    const image = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#065183' } }).png().toBuffer();
    const body = multipart({ typeArch: 'logo', mode: 'Light' }, { field: 'file', name: 'logo.png', type: 'image/png', data: image });
    const res = await t.app.inject({ method: 'POST', url: '/settings-whitelabel/logo', payload: body.payload, headers: { ...body.headers, ...bearer(roles.super.token) } });
    expect(res.statusCode).toBe(200);
    const branding = await entry('branding', 'update', 'logo');
    expect(branding.changes.file).toEqual({ after: res.json() });
    expect(branding.userId).toBe(roles.super.user.id);
  });
});

describe('GET /audit-log', () => {
  it('shows admins their company only, the super user all; plain users none', async () => {
    await call(roles.otherAdmin.token, 'POST', '/queue', { name: 'Alheia', color: '#0f0f0f' });
    const own = await log(roles.admin.token, '?companyId=' + roles.otherCompanyId);
    expect(own.entries.length).toBeGreaterThan(0);
    expect(new Set(own.entries.map((e) => e.companyId))).toEqual(new Set([roles.companyId]));
    const other = await log(roles.otherAdmin.token);
    expect(other.entries.some((e) => e.changes.name?.after === 'Alheia')).toBe(true);
    expect(other.entries.every((e) => e.companyId === roles.otherCompanyId)).toBe(true);

    const all = await log(roles.super.token);
    expect(all.entries.some((e) => e.companyId === roles.companyId) && all.entries.some((e) => e.companyId === roles.otherCompanyId)).toBe(true);
    expect((await log(roles.super.token, `?companyId=${roles.otherCompanyId}`)).entries.every((e) => e.companyId === roles.otherCompanyId)).toBe(true);

    expect((await call(roles.user.token, 'GET', '/audit-log')).statusCode).toBe(403);
  });

  it('filters by kind, action, author and day, newest first, paged', async () => {
    const queues = (await log(roles.admin.token, '?entity=queue&action=create')).entries;
    expect(queues.length).toBeGreaterThan(0);
    expect(queues.every((e) => e.entity === 'queue' && e.action === 'create')).toBe(true);
    const byAuthor = await log(roles.super.token, `?userId=${roles.admin.user.id}`);
    expect(byAuthor.entries.every((e) => e.userId === roles.admin.user.id)).toBe(true);
    const dates = byAuthor.entries.map((e) => e.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect((await log(roles.super.token, '?to=2000-01-01')).entries).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await log(roles.admin.token, `?from=${today}`)).count).toBeGreaterThan(0);
    expect((await call(roles.admin.token, 'GET', '/audit-log?entity=nonsense')).statusCode).toBe(400);
    expect((await log(roles.admin.token, '?pageNumber=999')).entries).toEqual([]);
  });

  it('cannot be edited or deleted through the API', async () => {
    const [first] = (await log(roles.super.token)).entries;
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      expect((await call(roles.super.token, method, `/audit-log/${first?.id}`, {})).statusCode).toBe(404);
      expect((await call(roles.super.token, method, '/audit-log', {})).statusCode).toBe(404);
    }
    expect((await call(roles.super.token, 'POST', '/audit-log', { action: 'create' })).statusCode).toBe(404);
    expect((await log(roles.super.token)).entries[0]).toEqual(first);
  });
});
