import { BRANDING_DEFAULT_IMAGES } from '@balcao/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type TestApp } from '../../../test/helpers.js';
import { createAdminTestApp, setupRoles, type Roles } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
});
afterAll(() => t.close());

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('default images', () => {
  it('serves the default avatar clients show at /public/app/noimage.png, without login', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/public/app/noimage.png' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  });

  it('resolves each branding image without a file to a built-in default that is served', async () => {
    for (const [key, file] of Object.entries(BRANDING_DEFAULT_IMAGES)) {
      expect((await t.app.inject({ method: 'GET', url: `/public-settings/${key}` })).json(), key).toBe(file);
      const image = await t.app.inject({ method: 'GET', url: `/public/${file}` });
      expect(image.statusCode, file).toBe(200);
      expect(image.rawPayload.subarray(0, 8), file).toEqual(PNG_SIGNATURE);
    }
    const list = (await t.app.inject({ method: 'GET', url: '/settings', headers: bearer(roles.super.token) })).json() as { key: string; value: string }[];
    expect(list.find((s) => s.key === 'appLogoDark')?.value).toBe(BRANDING_DEFAULT_IMAGES.appLogoDark);
  });

  it('answers the stored file once a branding image has one, and the default again once cleared', async () => {
    const put = (value: string) =>
      t.app.inject({ method: 'PUT', url: '/settings/appLogoLight', headers: bearer(roles.super.token), payload: { value } });
    expect((await put('brand-own.png')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/public-settings/appLogoLight' })).json()).toBe('brand-own.png');
    expect((await put('')).json()).toEqual({ key: 'appLogoLight', value: BRANDING_DEFAULT_IMAGES.appLogoLight });
    expect((await t.app.inject({ method: 'GET', url: '/public-settings/appLogoLight' })).json()).toBe(BRANDING_DEFAULT_IMAGES.appLogoLight);
  });
});
