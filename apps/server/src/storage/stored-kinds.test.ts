import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts } from '../db/schema/index.js';
import { storeContactPicture } from '../modules/contacts/picture.js';
import { createConnection } from '../../test/connections.js';
import { FakeGraph } from '../../test/fakes/graph-server.js';
import { FakeS3, s3Env } from '../../test/fakes/s3-server.js';
import { bearer, createTestApp, type LoggedIn, type TestApp } from '../../test/helpers.js';
import { multipart } from '../../test/multipart.js';
import { setupRoles, type Roles } from '../../test/roles.js';
import { createContact } from '../../test/tickets.js';

/**
 * Issue 19: every kind of stored file, not only message media, goes through the one media
 * storage: with S3_BUCKET each lands in the bucket (never in the node's folder), is served at
 * its /public path, and its replacement or removal deletes the object.
 */

const BUCKET = 'balcao-files';
let s3: FakeS3;
let graph: FakeGraph;
let t: TestApp;
let roles: Roles;

beforeAll(async () => {
  s3 = await FakeS3.start();
  graph = await FakeGraph.start();
  t = await createTestApp({
    ...s3Env(s3, BUCKET),
  });
  roles = await setupRoles(t);
});
afterAll(async () => {
  await t?.close();
  await graph?.close();
  await s3?.close();
});

const png = (colour = '#3366ff') => sharp({ create: { width: 16, height: 16, channels: 3, background: colour } }).png().toBuffer();
const object = (key: string) => s3.objects.get(`/${BUCKET}/${key}`);
const inFolder = (key: string) => existsSync(join(t.app.ctx.config.dataDir, 'public', ...key.split('/')));
const get = (key: string) => t.app.inject({ method: 'GET', url: `/public/${key}` });

function upload(who: LoggedIn, url: string, fields: Record<string, string | string[]>, file: { field: string; name: string; type: string; data: Buffer }) {
  const form = multipart(fields, file);
  return t.app.inject({ method: 'POST', url, headers: { ...bearer(who.token), ...form.headers }, payload: form.payload });
}

/** The file is in the bucket only, and /public answers its bytes with the stored-file headers. */
async function expectStored(key: string, type: string): Promise<Buffer> {
  const stored = object(key);
  expect(stored, key).toBeDefined();
  expect(inFolder(key)).toBe(false);
  const res = await get(key);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe(type);
  expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  expect(res.headers['cache-control']).toBe('private, max-age=86400, immutable');
  expect(res.rawPayload.equals(stored!.body)).toBe(true);
  return stored!.body;
}

async function expectGone(key: string): Promise<void> {
  expect(object(key), key).toBeUndefined();
  expect((await get(key)).statusCode).toBe(404);
}

describe('every stored file in the bucket', () => {
  it('avatars: stored under the company, served, the replaced one deleted', async () => {
    const url = `/users/${roles.admin.user.id}/media-upload`;
    const first = await upload(roles.admin, url, { typeArch: 'user' }, { field: 'profileImage', name: 'me.png', type: 'image/png', data: await png() });
    expect(first.statusCode, first.body).toBe(200);
    const firstKey = `company${roles.companyId}/${first.json().user.profileImage as string}`;
    const jpeg = await expectStored(firstKey, 'image/jpeg');
    expect((await sharp(jpeg).metadata()).format).toBe('jpeg');

    const second = await upload(roles.admin, url, { typeArch: 'user' }, { field: 'profileImage', name: 'me.png', type: 'image/png', data: await png('#00aa00') });
    await expectStored(`company${roles.companyId}/${second.json().user.profileImage as string}`, 'image/jpeg');
    await expectGone(firstKey);
  });

  it('branding images: platform-wide keys, served at /public/{name}, the replaced one deleted', async () => {
    const send = async () =>
      upload(roles.super, '/settings-whitelabel/logo', { typeArch: 'logo', mode: 'Light' }, { field: 'file', name: 'logo.png', type: 'image/png', data: await png() });
    const first = (await send()).json() as string;
    expect(first).toMatch(/^brand-[0-9a-f]{32}\.png$/);
    await expectStored(first, 'image/png');
    const second = (await send()).json() as string;
    await expectStored(second, 'image/png');
    await expectGone(first);
  });

  it('announcement images: stored, served, deleted with the image', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/announcements', headers: bearer(roles.super.token), payload: { title: 'S3', text: 'Imagem no bucket' } });
    const id = created.json().id as number;
    const res = await upload(roles.super, `/announcements/${id}/media-upload`, { typeArch: 'announcements' }, { field: 'file', name: 'banner.png', type: 'image/png', data: await png() });
    expect(res.statusCode, res.body).toBe(200);
    const key = res.json().mediaPath as string;
    await expectStored(key, 'image/png');
    expect((await t.app.inject({ method: 'DELETE', url: `/announcements/${id}/media-upload`, headers: bearer(roles.super.token) })).statusCode).toBe(200);
    await expectGone(key);
  });

  it("contact pictures: downloaded into the company's contacts/ keys, the previous copy deleted", async () => {
    const connection = await createConnection(t.db, roles.companyId);
    const contact = await createContact(t.db, roles.companyId);
    const picture = async () => (await t.db.select().from(contacts).where(eq(contacts.id, contact.id)))[0]!.profilePicUrl!;
    const keyOf = (url: string) => new URL(url).pathname.replace(/^\/public\//, '');
    const job = { companyId: roles.companyId, contactId: contact.id, whatsappId: connection.id };

    await storeContactPicture(t.app.ctx, { ...job, url: graph.mediaUrl('first.png') });
    const firstKey = keyOf(await picture());
    expect(firstKey).toMatch(new RegExp(`^company${roles.companyId}/contacts/contact-[0-9a-f]{32}\\.png$`));
    await expectStored(firstKey, 'image/png');

    await storeContactPicture(t.app.ctx, { ...job, url: graph.mediaUrl('second.png') });
    const secondKey = keyOf(await picture());
    expect(secondKey).not.toBe(firstKey);
    await expectStored(secondKey, 'image/png');
    await expectGone(firstKey);
  });

  it('file-list files: stored under the company, served, deleted with the list; another company cannot upload to it', async () => {
    const list = (await t.app.inject({ method: 'POST', url: '/files', headers: bearer(roles.admin.token), payload: { name: 'Bucket', message: 'Arquivos', options: [{ name: 'Tabela' }] } })).json();
    const option = list.options[0];
    const form = (who: LoggedIn) =>
      upload(
        who,
        `/files/uploadList/${list.id as number}`,
        { fileId: String(list.id), typeArch: 'fileList', mediaType: 'application', name: 'Tabela', id: String(option.id) },
        { field: 'files', name: 'tabela.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4\n%bucket\n') },
      );
    const before = s3.objects.size;
    const foreign = await form(roles.otherAdmin);
    expect(foreign.statusCode).toBe(404);
    expect(s3.objects.size).toBe(before);

    const res = await form(roles.admin);
    expect(res.statusCode, res.body).toBe(200);
    const key = `company${roles.companyId}/${res.json().options[0].path as string}`;
    expect((await expectStored(key, 'application/octet-stream')).toString()).toContain('%bucket');
    expect((await t.app.inject({ method: 'DELETE', url: `/files/${list.id as number}`, headers: bearer(roles.admin.token) })).statusCode).toBe(200);
    await expectGone(key);
  });

  it('quick-message media: stored, served, deleted with the media', async () => {
    const reply = (await t.app.inject({ method: 'POST', url: '/quick-messages', headers: bearer(roles.user.token), payload: { shortcode: 'bucket', message: 'Cardápio' } })).json();
    const res = await upload(roles.user, `/quick-messages/${reply.id as number}/media-upload`, { typeArch: 'quickMessage' }, { field: 'file', name: 'menu.png', type: 'image/png', data: await png() });
    expect(res.statusCode, res.body).toBe(200);
    const key = `company${roles.companyId}/${res.json().mediaPath as string}`;
    await expectStored(key, 'image/png');
    expect((await t.app.inject({ method: 'DELETE', url: `/quick-messages/${reply.id as number}/media-upload`, headers: bearer(roles.user.token) })).statusCode).toBe(200);
    await expectGone(key);
  });

  it('schedule attachments: stored, served, deleted with the attachment', async () => {
    const contact = await createContact(t.db, roles.companyId);
    const sendAt = new Date(Date.now() + 3600_000).toISOString();
    const schedule = (await t.app.inject({ method: 'POST', url: '/schedules', headers: bearer(roles.admin.token), payload: { body: 'Segue o boleto', contactId: contact.id, sendAt } })).json();
    const url = `/schedules/${schedule.id as number}/media-upload`;
    const res = await upload(roles.admin, url, { typeArch: 'schedules' }, { field: 'file', name: 'boleto.png', type: 'image/png', data: await png() });
    expect(res.statusCode, res.body).toBe(200);
    const key = `company${roles.companyId}/${res.json().mediaPath as string}`;
    await expectStored(key, 'image/png');
    expect((await t.app.inject({ method: 'DELETE', url, headers: bearer(roles.admin.token) })).statusCode).toBe(200);
    await expectGone(key);
  });

  it('answers 503 ERR_STORAGE_UNAVAILABLE while the bucket fails, and serves again once it is back', async () => {
    const url = `/users/${roles.user.user.id}/media-upload`;
    const stored = await upload(roles.user, url, { typeArch: 'user' }, { field: 'profileImage', name: 'me.png', type: 'image/png', data: await png() });
    const key = `company${roles.companyId}/${stored.json().user.profileImage as string}`;
    s3.failing = true;
    try {
      const refused = await upload(roles.user, url, { typeArch: 'user' }, { field: 'profileImage', name: 'me.png', type: 'image/png', data: await png() });
      expect([refused.statusCode, refused.json()]).toEqual([503, { error: 'ERR_STORAGE_UNAVAILABLE' }]);
      const read = await get(key);
      expect([read.statusCode, read.json()]).toEqual([503, { error: 'ERR_STORAGE_UNAVAILABLE' }]);
    } finally {
      s3.failing = false;
    }
    await expectStored(key, 'image/jpeg');
  });

  it('refuses keys that would leave the storage, and serves the built-in images from the server', async () => {
    for (const url of ['/public/..%2Fsecrets.json', '/public/company1/..%2F..%2Fsecrets.json', '/public/company1//x.png']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    expect(s3.requests.some((r) => r.path.includes('..'))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/public/app/logo.png' })).statusCode).toBe(200);
  });
});
