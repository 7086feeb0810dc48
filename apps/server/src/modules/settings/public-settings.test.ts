import { PUBLIC_SETTING_KEYS } from '@balcao/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../db/schema/index.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createTestApp, login, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.db.insert(settings).values({ key: 'internalSecret', value: 's3cr3t' });
});
afterAll(() => t.close());

describe('GET /public-settings (issue 12: the login page reads its branding in one call)', () => {
  it('answers every public key, and only those, without login; each agrees with the per-key endpoint', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/public-settings' });
    expect(res.statusCode).toBe(200);
    const all = res.json() as Record<string, string | null>;
    expect(Object.keys(all).sort()).toEqual([...PUBLIC_SETTING_KEYS].sort());
    expect(res.body).not.toContain('s3cr3t');
    expect(all.appName).toBe('Balcão');
    for (const key of PUBLIC_SETTING_KEYS) {
      const one = (await t.app.inject({ method: 'GET', url: `/public-settings/${key}` })).json() as string | null;
      expect(all[key], key).toEqual(one);
    }
  });

  it('shows a change the super user makes at once', async () => {
    const superUser = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const put = await t.app.inject({ method: 'PUT', url: '/settings/appName', headers: bearer(superUser.token), payload: { value: 'Central Atende' } });
    expect(put.statusCode).toBe(200);
    expect(((await t.app.inject({ method: 'GET', url: '/public-settings' })).json() as { appName: string }).appName).toBe('Central Atende');
  });
});
