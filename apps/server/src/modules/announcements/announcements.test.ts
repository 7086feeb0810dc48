import { announcementSchema, type Announcement } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { announcements } from '../../db/schema/index.js';
import { bearer, nextEvent, type TestApp } from '../../../test/helpers.js';
import { multipart } from '../../../test/multipart.js';
import { openSocket, type Roles, rolesSuite } from '../../../test/roles.js';
import { ANNOUNCEMENT_IMAGE_MAX_BYTES } from './media.js';

let t: TestApp;
let roles: Roles;
let port: number;
const sockets = rolesSuite((suite) => ({ t, roles, port } = suite));

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

function upload(token: string, id: number, data: Buffer, name = 'banner.png', type = 'image/png') {
  const body = multipart({ typeArch: 'announcements' }, { field: 'file', name, type, data });
  return t.app.inject({ method: 'POST', url: `/announcements/${id}/media-upload`, payload: body.payload, headers: { ...body.headers, ...bearer(token) } });
}
const image = (format: 'png' | 'jpeg' | 'webp') => sharp({ create: { width: 40, height: 20, channels: 3, background: '#c62828' } })[format]().toBuffer();
const publicFile = (name: string) => join(t.app.ctx.config.dataDir, 'public', name);

describe('announcements', () => {
  let first: Announcement;

  it('the super user publishes; plain users of every company hear company-announcement live', async () => {
    const plain = await openSocket(port, roles.user);
    const otherCompany = await openSocket(port, roles.otherAdmin);
    sockets.push(plain, otherCompany);
    const heardHere = nextEvent(plain, 'company-announcement');
    const heardThere = nextEvent(otherCompany, 'company-announcement');
    const res = await call(roles.super.token, 'POST', '/announcements', { title: 'Manutenção', text: 'Sábado às 22h', priority: 1 });
    expect(res.statusCode).toBe(200);
    first = announcementSchema.parse(res.json());
    expect(first).toMatchObject({ title: 'Manutenção', text: 'Sábado às 22h', priority: 1, status: true, mediaPath: null, mediaName: null });
    expect(await heardHere).toEqual({ action: 'create', record: first });
    expect(await heardThere).toEqual({ action: 'create', record: first });
  });

  it('defaults to priority 3 and active; the bell list holds only active ones, by priority', async () => {
    const low = (await call(roles.super.token, 'POST', '/announcements', { title: 'Novidade', text: 'Nova tela' })).json();
    expect(low).toMatchObject({ priority: 3, status: true });
    await call(roles.super.token, 'POST', '/announcements', { title: 'Rascunho', text: 'Ainda não', priority: 2, status: false });
    for (const token of [roles.user.token, roles.otherAdmin.token]) {
      const list = await call(token, 'GET', '/announcements/list');
      expect(list.statusCode).toBe(200);
      expect(list.json().map((a: Announcement) => a.title)).toEqual(['Manutenção', 'Novidade']);
    }
    expect((await t.app.inject({ method: 'GET', url: '/announcements/list' })).statusCode).toBe(401);
  });

  it('the super user pages, searches, reads, edits and deletes; an unknown id is 404', async () => {
    const page = await call(roles.super.token, 'GET', '/announcements?searchParam=rascunho&pageNumber=1');
    expect(page.json()).toMatchObject({ count: 1, hasMore: false, records: [{ title: 'Rascunho', status: false }] });
    expect((await call(roles.super.token, 'GET', '/announcements?pageNumber=1')).json()).toMatchObject({ count: 3, hasMore: false });
    expect((await call(roles.super.token, 'GET', `/announcements/${first.id}`)).json()).toEqual(first);

    const edited = await call(roles.super.token, 'PUT', `/announcements/${first.id}`, { text: 'Domingo às 23h', status: false });
    expect(edited.json()).toMatchObject({ title: 'Manutenção', text: 'Domingo às 23h', status: false, priority: 1 });
    expect((await call(roles.user.token, 'GET', '/announcements/list')).json().map((a: Announcement) => a.title)).toEqual(['Novidade']);

    expect((await call(roles.super.token, 'DELETE', `/announcements/${first.id}`)).statusCode).toBe(200);
    expect((await call(roles.super.token, 'GET', `/announcements/${first.id}`)).json()).toEqual({ error: 'ERR_NO_ANNOUNCEMENT_FOUND' });
    expect((await call(roles.super.token, 'PUT', `/announcements/${first.id}`, { title: 'Again' })).statusCode).toBe(404);
    expect((await call(roles.super.token, 'DELETE', `/announcements/${first.id}`)).statusCode).toBe(404);
  });

  it('refuses bad input: title and text required, priority 1 to 3', async () => {
    const bad = await call(roles.super.token, 'POST', '/announcements', { title: '', text: ' ', priority: 4 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues.map((i: { path: string }) => i.path).sort()).toEqual(['priority', 'text', 'title']);
  });

  it('refuses every read of drafts and every change to anyone but the super user, before validation', async () => {
    const [target] = await t.db.insert(announcements).values({ title: 'Protegido', text: 'Não mexa', status: false }).returning();
    const id = target?.id ?? 0;
    for (const token of [roles.admin.token, roles.user.token, roles.otherAdmin.token]) {
      expect((await call(token, 'GET', '/announcements')).statusCode).toBe(403);
      expect((await call(token, 'GET', `/announcements/${id}`)).statusCode).toBe(403);
      expect((await call(token, 'POST', '/announcements', {})).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
      expect((await call(token, 'PUT', `/announcements/${id}`, { title: 'Hack' })).statusCode).toBe(403);
      expect((await call(token, 'DELETE', `/announcements/${id}`)).statusCode).toBe(403);
      expect((await upload(token, id, await image('png'))).statusCode).toBe(403);
      expect((await call(token, 'DELETE', `/announcements/${id}/media-upload`)).statusCode).toBe(403);
    }
    const [after] = await t.db.select().from(announcements).where(eq(announcements.id, id));
    expect(after).toMatchObject({ title: 'Protegido', status: false, mediaPath: null });
  });

  it('takes a png or jpeg image by its bytes, replaces and removes it; anything else is refused', async () => {
    const a = announcementSchema.parse((await call(roles.super.token, 'POST', '/announcements', { title: 'Com imagem', text: 'Veja' })).json());
    const listener = await openSocket(port, roles.user);
    sockets.push(listener);
    const heard = nextEvent<{ action: string; record: Announcement }>(listener, 'company-announcement');
    const res = await upload(roles.super.token, a.id, await image('png'), 'banner.png');
    expect(res.statusCode).toBe(200);
    const withPng = announcementSchema.parse(res.json());
    expect(withPng).toMatchObject({ mediaName: 'banner.png', mediaPath: expect.stringMatching(/^announcement-[0-9a-f]{32}\.png$/) });
    expect(await heard).toEqual({ action: 'update', record: withPng });
    expect((await t.app.inject({ method: 'GET', url: `/public/${withPng.mediaPath}` })).statusCode).toBe(200);

    const withJpeg = announcementSchema.parse((await upload(roles.super.token, a.id, await image('jpeg'), 'foto.jpg', 'image/jpeg')).json());
    expect(withJpeg.mediaPath).toMatch(/\.jpg$/);
    expect(existsSync(publicFile(withPng.mediaPath ?? ''))).toBe(false);

    // A webp, an HTML page named .png and an oversized file change nothing.
    const webp = await upload(roles.super.token, a.id, await image('webp'), 'x.webp', 'image/webp');
    expect([webp.statusCode, webp.json().error]).toEqual([400, 'ERR_INVALID_IMAGE']);
    const html = await upload(roles.super.token, a.id, Buffer.from('<html><script>alert(1)</script></html>'), 'x.png', 'image/png');
    expect(html.json().error).toBe('ERR_INVALID_IMAGE');
    const big = Buffer.concat([await image('png'), Buffer.alloc(ANNOUNCEMENT_IMAGE_MAX_BYTES)]);
    expect((await upload(roles.super.token, a.id, big)).statusCode).toBe(413);
    expect((await call(roles.super.token, 'GET', `/announcements/${a.id}`)).json()).toMatchObject({ mediaPath: withJpeg.mediaPath, mediaName: 'foto.jpg' });

    const removed = await call(roles.super.token, 'DELETE', `/announcements/${a.id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaPath: null, mediaName: null, title: 'Com imagem' });
    expect(existsSync(publicFile(withJpeg.mediaPath ?? ''))).toBe(false);

    const again = announcementSchema.parse((await upload(roles.super.token, a.id, await image('png'))).json());
    expect((await call(roles.super.token, 'DELETE', `/announcements/${a.id}`)).statusCode).toBe(200);
    expect(existsSync(publicFile(again.mediaPath ?? ''))).toBe(false);
  });
});
