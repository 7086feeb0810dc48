import type { Message, Whatsapp } from '@balcao/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, tickets } from '../db/schema/index.js';
import { createConnection } from '../../test/connections.js';
import { PNG } from '../../test/fakes/graph-server.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, type LoggedIn, type TestApp } from '../../test/helpers.js';
import { multipart } from '../../test/multipart.js';

/** Issue 9 point 2: nothing uploaded is ever served as something a browser runs. */
let t: TestApp;
let admin: LoggedIn;
let ticketId: number;
let connId: number;

const SCRIPT = Buffer.from('<html><body><script>document.title="pwned"</script><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/></body></html>');
const ACTIVE_NAMES = ['page.shtml', 'page.xht', 'style.xsl', 'image.svgz', 'page.html', 'image.svg', 'feed.xml', 'page.xhtml'];

function expectInert(res: { statusCode: number; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/octet-stream');
  expect(res.headers['content-disposition']).toBe('attachment');
  expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_IP: '1000', LOGIN_MAX_PER_EMAIL: '1000' });
  const own = await createCompanyWithAdmin(t.db);
  admin = await login(t.app, own.email, own.password);
  connId = (await createConnection(t.db, own.company.id)).id;
  const [contact] = await t.db
    .insert(contacts)
    .values({ companyId: own.company.id, channel: 'facebook', name: 'Maria', number: '4242', remoteJid: '4242' })
    .returning();
  const [ticket] = await t.db
    .insert(tickets)
    .values({ companyId: own.company.id, contactId: contact!.id, whatsappId: connId, channel: 'facebook', status: 'open', userId: admin.user.id })
    .returning();
  ticketId = ticket!.id;
});

afterAll(async () => {
  await t?.close();
});

describe('files under /public', () => {
  it.each(ACTIVE_NAMES)('a message attachment of unknown type named %s is served as an inert download', async (name) => {
    const form = multipart({ body: '' }, { field: 'medias', name, type: 'application/x-unknown', data: SCRIPT });
    const res = await t.app.inject({ method: 'POST', url: `/messages/${ticketId}`, headers: { ...bearer(admin.token), ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(200);
    const served = await t.app.inject({ method: 'GET', url: new URL(res.json<Message>().mediaUrl!).pathname });
    expectInert(served);
    expect(served.rawPayload.equals(SCRIPT)).toBe(true);
  });

  it('connection greeting media of unknown image type named .svgz is served as an inert download', async () => {
    const form = multipart({}, { field: 'file', name: 'promo.svgz', type: 'image/x-unknown', data: SCRIPT });
    const res = await t.app.inject({ method: 'POST', url: `/whatsapp/${connId}/media-upload`, headers: { ...bearer(admin.token), ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(200);
    const fileName = res.json<Whatsapp>().greetingMediaAttachment!;
    expectInert(await t.app.inject({ method: 'GET', url: `/public/company${admin.user.companyId}/${fileName}` }));
  });

  it('images stay inline, with the same sandbox and nosniff', async () => {
    const form = multipart({ body: '' }, { field: 'medias', name: 'foto.png', type: 'image/png', data: PNG });
    const res = await t.app.inject({ method: 'POST', url: `/messages/${ticketId}`, headers: { ...bearer(admin.token), ...form.headers }, payload: form.payload });
    const served = await t.app.inject({ method: 'GET', url: new URL(res.json<Message>().mediaUrl!).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-disposition']).toBeUndefined();
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });
});
