import { COMPANY_SETTING_KEYS, PUBLIC_SETTING_KEYS } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../db/schema/index.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createCompanyWithAdmin, createTestApp, login, type LoggedIn, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let superUser: LoggedIn;
let tenant: LoggedIn;
beforeAll(async () => {
  t = await createTestApp();
  // A private global setting, to prove it never leaks.
  await t.db.insert(settings).values({ key: 'internalSecret', value: 's3cr3t' });
  superUser = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  const c = await createCompanyWithAdmin(t.db);
  tenant = await login(t.app, c.email, c.password);
});
afterAll(() => t.close());

describe('public settings', () => {
  it('answer the bare value of public keys without login', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/public-settings/appName' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toBe('Balcão');
    expect((await t.app.inject({ method: 'GET', url: '/public-settings/userCreation' })).json()).toBe('enabled');
  });

  it('refuse private and unknown keys with 404 ERR_NO_SETTING_FOUND', async () => {
    for (const key of ['internalSecret', 'nope']) {
      const res = await t.app.inject({ method: 'GET', url: `/public-settings/${key}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_SETTING_FOUND' });
      expect(res.body).not.toContain('s3cr3t');
    }
  });
});

describe('global settings', () => {
  it('GET /settings lists everything for the super user and only public keys for others', async () => {
    const all = await t.app.inject({ method: 'GET', url: '/settings', headers: bearer(superUser.token) });
    expect(all.json().map((s: { key: string }) => s.key)).toContain('internalSecret');
    const mine = await t.app.inject({ method: 'GET', url: '/settings', headers: bearer(tenant.token) });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().map((s: { key: string }) => s.key).sort()).toEqual([...PUBLIC_SETTING_KEYS].sort());
  });

  it('GET /setting/{key}: public keys for anyone, other keys for the super user only', async () => {
    const pub = await t.app.inject({ method: 'GET', url: '/setting/appName', headers: bearer(tenant.token) });
    expect(pub.json()).toEqual({ key: 'appName', value: 'Balcão' });
    const hidden = await t.app.inject({ method: 'GET', url: '/setting/internalSecret', headers: bearer(tenant.token) });
    expect(hidden.statusCode).toBe(404);
    const bySuper = await t.app.inject({ method: 'GET', url: '/setting/internalSecret', headers: bearer(superUser.token) });
    expect(bySuper.json()).toEqual({ key: 'internalSecret', value: 's3cr3t' });
  });

  it('PUT /settings/{key}: 403 for a company admin, validated and stored for the super user', async () => {
    const denied = await t.app.inject({ method: 'PUT', url: '/settings/userCreation', headers: bearer(tenant.token), payload: { value: 'disabled' } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const [row] = await t.db.select().from(settings).where(eq(settings.key, 'userCreation'));
    expect(row?.value).toBe('enabled');

    const bad = await t.app.inject({ method: 'PUT', url: '/settings/userCreation', headers: bearer(superUser.token), payload: { value: 'maybe' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('ERR_VALIDATION');
    const badColor = await t.app.inject({ method: 'PUT', url: '/settings/primaryColorLight', headers: bearer(superUser.token), payload: { value: 'red' } });
    expect(badColor.statusCode).toBe(400);
    const unknown = await t.app.inject({ method: 'PUT', url: '/settings/whatever', headers: bearer(superUser.token), payload: { value: 'x' } });
    expect(unknown.statusCode).toBe(404);

    const ok = await t.app.inject({ method: 'PUT', url: '/settings/primaryColorLight', headers: bearer(superUser.token), payload: { value: '#112233' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ key: 'primaryColorLight', value: '#112233' });
    expect((await t.app.inject({ method: 'GET', url: '/public-settings/primaryColorLight' })).json()).toBe('#112233');
  });
});

describe('GET /companySettings/{companyId}', () => {
  it('answers the flat object for the own company, 403 for another, anything for the super user', async () => {
    const own = await t.app.inject({ method: 'GET', url: `/companySettings/${tenant.user.companyId}`, headers: bearer(tenant.token) });
    expect(own.statusCode).toBe(200);
    expect(Object.keys(own.json()).sort()).toEqual([...COMPANY_SETTING_KEYS].sort());
    const other = await t.app.inject({ method: 'GET', url: '/companySettings/1', headers: bearer(tenant.token) });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const bySuper = await t.app.inject({ method: 'GET', url: `/companySettings/${tenant.user.companyId}`, headers: bearer(superUser.token) });
    expect(bySuper.statusCode).toBe(200);
  });
});

describe('version', () => {
  it('GET /version is public; POST /version is for the super user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/version' })).json()).toEqual({ version: '2.0.4-v3' });
    const anon = await t.app.inject({ method: 'POST', url: '/version', payload: { version: '9.9.9' } });
    expect(anon.statusCode).toBe(401);
    const denied = await t.app.inject({ method: 'POST', url: '/version', headers: bearer(tenant.token), payload: { version: '9.9.9' } });
    expect(denied.statusCode).toBe(403);
    const ok = await t.app.inject({ method: 'POST', url: '/version', headers: bearer(superUser.token), payload: { version: '2.0.5' } });
    expect(ok.json()).toEqual({ version: '2.0.5' });
    expect((await t.app.inject({ method: 'GET', url: '/version' })).json()).toEqual({ version: '2.0.5' });
  });
});

describe('HTTP basics', () => {
  it('serves DATA_DIR/public under /public/ for other origins', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = join(t.app.ctx.config.dataDir, 'public');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'logo.txt'), 'logo');
    const res = await t.app.inject({ method: 'GET', url: '/public/logo.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('logo');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect((await t.app.inject({ method: 'GET', url: '/public/../secrets.json' })).statusCode).toBe(404);
  });

  it('unknown routes answer 404 ERR_NOT_FOUND, /health ok, /docs serves the OpenAPI document', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'ERR_NOT_FOUND' });
    expect((await t.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    const doc = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(doc.statusCode).toBe(200);
    expect(Object.keys(doc.json().paths)).toEqual(expect.arrayContaining(['/auth/login', '/auth/signup', '/settings/{key}']));
  });

  it('answers 413 ERR_PAYLOAD_TOO_LARGE past the body limit, and allows cross-origin resources', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'a@b.c', password: 'x'.repeat(3 * 1024 * 1024) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    const health = await t.app.inject({ method: 'GET', url: '/health', headers: { origin: 'http://localhost:3000' } });
    expect(health.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(health.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(health.headers['access-control-allow-credentials']).toBe('true');
  });
});
