import { PUBLIC_NAMESPACE } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../db/schema/index.js';
import { bearer, nextEvent, type TestApp } from '../../../test/helpers.js';
import { multipart } from '../../../test/multipart.js';
import { createAdminTestApp, listen, setupRoles, type Roles } from '../../../test/roles.js';
import { BRANDING_UPLOAD_MAX_BYTES } from './service.js';

let t: TestApp;
let roles: Roles;
let port: number;
beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
  port = await listen(t);
});
afterAll(() => t.close());

const png = () => sharp({ create: { width: 64, height: 32, channels: 3, background: '#065183' } }).png().toBuffer();

function upload(token: string, kind: 'logo' | 'login', mode: string, data: Buffer, type = 'image/png') {
  const body = multipart({ typeArch: kind, mode }, { field: 'file', name: 'logo.png', type, data });
  return t.app.inject({ method: 'POST', url: `/settings-whitelabel/${kind}`, payload: body.payload, headers: { ...body.headers, ...bearer(token) } });
}

const publicFiles = () => readdirSync(join(t.app.ctx.config.dataDir, 'public')).filter((f) => f.startsWith('brand-'));
const setting = async (key: string) => (await t.db.select().from(settings).where(eq(settings.key, key)))[0]?.value;

describe('whitelabel uploads', () => {
  it('stores the image under an unguessable name, points the setting at it and tells open login pages', async () => {
    const loginPage = io(`http://127.0.0.1:${port}${PUBLIC_NAMESPACE}`, { transports: ['websocket'], reconnection: false, forceNew: true });
    await nextEvent(loginPage, 'connect');
    const heard = nextEvent<{ action: string; setting: { key: string; value: string } }>(loginPage, 'settings');

    const res = await upload(roles.super.token, 'logo', 'Light', await png());
    expect(res.statusCode).toBe(200);
    const fileName = res.json() as string;
    expect(fileName).toMatch(/^brand-[0-9a-f]{32}\.png$/);
    expect(await setting('appLogoLight')).toBe(fileName);
    expect((await t.app.inject({ method: 'GET', url: `/public/${fileName}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/public-settings/appLogoLight' })).json()).toBe(fileName);
    expect(await heard).toEqual({ action: 'update', setting: { key: 'appLogoLight', value: fileName } });
    loginPage.close();

    const replaced = (await upload(roles.super.token, 'logo', 'light', await png())).json() as string;
    expect(existsSync(join(t.app.ctx.config.dataDir, 'public', fileName))).toBe(false);
    expect(publicFiles()).toEqual([replaced]);
  });

  it('maps each mode to its setting', async () => {
    for (const [kind, mode, key] of [
      ['logo', 'Dark', 'appLogoDark'],
      ['logo', 'Favicon', 'appLogoFavicon'],
      ['login', 'Enter', 'loginEnterImage'],
      ['login', 'loginRegisterImage', 'loginRegisterImage'],
    ] as const) {
      const res = await upload(roles.super.token, kind, mode, await png());
      expect(res.statusCode, mode).toBe(200);
      expect(await setting(key)).toBe(res.json());
    }
    expect((await upload(roles.super.token, 'login', 'Favicon', await png())).statusCode).toBe(400);
  });

  it('refuses non-images, oversized files and non-super callers, storing nothing', async () => {
    const before = publicFiles();
    const html = await upload(roles.super.token, 'logo', 'Dark', Buffer.from('<html><script>alert(1)</script></html>'), 'image/png');
    expect(html.statusCode).toBe(400);
    expect(html.json().error).toBe('ERR_INVALID_IMAGE');
    const svg = await upload(roles.super.token, 'logo', 'Dark', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml');
    expect(svg.json().error).toBe('ERR_INVALID_IMAGE');
    const big = await upload(roles.super.token, 'login', 'Enter', Buffer.concat([await png(), Buffer.alloc(BRANDING_UPLOAD_MAX_BYTES)]));
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe('ERR_FILE_TOO_LARGE');
    for (const token of [roles.admin.token, roles.user.token]) {
      expect((await upload(token, 'logo', 'Light', await png())).statusCode).toBe(403);
    }
    expect(publicFiles()).toEqual(before);
  });
});
