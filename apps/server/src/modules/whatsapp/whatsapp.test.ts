import { whatsappSchema } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, plans, queues, tickets, whatsappSessions, whatsapps } from '../../db/schema/index.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, collect, connectSocket, createCompanyWithAdmin, createTestApp, login, nextEvent, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createPlainUser } from '../../../test/roles.js';
import { createConnection, eventually, reloadConnection } from '../../../test/connections.js';
import { FakeGraph, PNG } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { fakeSocketFactory } from '../../../test/fakes/wa-socket.js';
import { defaultWhatsapp } from './service.js';

let t: TestApp;
let graph: FakeGraph;
const sockets = fakeSocketFactory();
let admin: LoggedIn;
let companyId: number;
let other: LoggedIn;
let otherCompanyId: number;

/** A secret that exists only inside the stored Baileys session. */
const SESSION_SECRET = 'noise-key-private-SECRET-7f3a9c';

const valid = (over: Record<string, unknown> = {}) => ({ name: 'Atendimento', ...over });
const post = (who: LoggedIn, payload: unknown) => t.app.inject({ method: 'POST', url: '/whatsapp', headers: bearer(who.token), payload: payload as object });
const put = (who: LoggedIn, id: number, payload: unknown) => t.app.inject({ method: 'PUT', url: `/whatsapp/${id}`, headers: bearer(who.token), payload: payload as object });
const issuesOf = (res: { json(): unknown }) => ((res.json() as { issues?: { path: string; message: string }[] }).issues ?? []).map((i) => `${i.path}:${i.message}`);

function multipart(field: string, filename: string, type: string, data: Buffer) {
  const boundary = '----balcao' + Math.random().toString(16).slice(2);
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), UPLOAD_LIMIT_MB: '1', LOGIN_MAX_PER_EMAIL: '1000', LOGIN_MAX_PER_IP: '1000' }, { channels: { makeWaSocket: sockets } });
  const [plan] = await t.db.insert(plans).values({ name: 'Conn plan', users: 10, connections: 4, queues: 10 }).returning();
  const c = await createCompanyWithAdmin(t.db, { planId: plan!.id });
  companyId = c.company.id;
  admin = await login(t.app, c.email, c.password);
  const o = await createCompanyWithAdmin(t.db);
  otherCompanyId = o.company.id;
  other = await login(t.app, o.email, o.password);
});

afterAll(async () => {
  await t.close();
  await graph.close();
});

describe('connection form validation (spec 1 §5)', () => {
  it('checks the name length with the spec texts', async () => {
    expect(issuesOf(await post(admin, valid({ name: 'A' })))).toContain('name:Too Short!');
    expect(issuesOf(await post(admin, valid({ name: 'A'.repeat(51) })))).toContain('name:Too Long!');
  });

  it('applies the NPS, redirection, vacation, import and inactivity rules', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ratingMessage: 'Nota?', expiresTicketNPS: 0 }, 'expiresTicketNPS:whatsappModal.errorExpiresNPS'],
      [{ timeSendQueue: 5 }, 'sendIdQueue:whatsappModal.errorSendQueue'],
      [{ sendIdQueue: 1, timeSendQueue: '' }, 'timeSendQueue:whatsappModal.errorSendQueue'],
      [{ collectiveVacationMessage: 'Férias!' }, 'collectiveVacationStart:Required'],
      [
        { collectiveVacationMessage: 'Férias!', collectiveVacationStart: new Date(Date.now() - 30 * 86400e3).toISOString(), collectiveVacationEnd: new Date().toISOString() },
        'collectiveVacationStart:not before 10 days ago',
      ],
      [{ enableImportMessage: true }, 'importOldMessages:Required'],
      [{ enableImportMessage: true, importOldMessages: '2015-01-01', importRecentMessages: new Date().toISOString(), queueIdImportMessages: 1 }, 'importOldMessages:between 2 years ago and now'],
      [{ timeInactiveMessage: 10 }, 'expiresTicket:Required'],
    ];
    for (const [over, issue] of cases) {
      const res = await post(admin, valid(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(issuesOf(res), JSON.stringify(over)).toContain(issue);
    }
    expect(await t.db.select().from(whatsapps).where(eq(whatsapps.companyId, companyId))).toHaveLength(0);
  });

  it('requires a greeting with more than one queue, and only the company’s queues', async () => {
    const [q1, q2] = await t.db
      .insert(queues)
      .values([
        { companyId, name: 'Vendas', color: '#111111' },
        { companyId, name: 'Suporte', color: '#222222' },
      ])
      .returning();
    const [foreign] = await t.db.insert(queues).values({ companyId: otherCompanyId, name: 'Alheia', color: '#333333' }).returning();
    const noGreeting = await post(admin, valid({ queueIds: [q1!.id, q2!.id] }));
    expect(noGreeting.statusCode).toBe(400);
    expect(noGreeting.json()).toEqual({ error: 'ERR_WAPP_GREETING_REQUIRED' });
    expect((await post(admin, valid({ queueIds: [foreign!.id] }))).statusCode).toBe(400);
  });
});

describe('connections CRUD, defaults and visibility', () => {
  let first: number;
  let second: number;

  it('creates a WhatsApp connection: default when first, a 30-character token, its session started', async () => {
    const created = sockets.sockets.length;
    const res = await post(admin, valid({ name: 'Principal', greetingMessage: 'Olá {{name}}!', schedules: [] }));
    expect(res.statusCode).toBe(200);
    const w = whatsappSchema.parse(res.json());
    expect(w).toMatchObject({ channel: 'whatsapp', isDefault: true, companyId, prompt: null, queues: [] });
    expect(w.token).toMatch(/^[A-Za-z0-9]{30}$/);
    first = w.id;
    await eventually(async () => sockets.sockets.length > created);
  });

  it('moves the default to a new default connection and refuses to leave the company without one', async () => {
    const res = await post(admin, valid({ name: 'Segunda', isDefault: true }));
    expect(res.statusCode).toBe(200);
    second = res.json().id;
    expect((await reloadConnection(t.db, first))?.isDefault).toBe(false);

    const unset = await put(admin, second, { isDefault: false });
    expect(unset.statusCode).toBe(400);
    expect(unset.json()).toEqual({ error: 'ERR_NO_OTHER_WHATSAPP' });
    const del = await t.app.inject({ method: 'DELETE', url: `/whatsapp/${second}`, headers: bearer(admin.token) });
    expect(del.json()).toEqual({ error: 'ERR_NO_OTHER_WHATSAPP' });
    expect((await defaultWhatsapp(t.app.ctx, companyId)).id).toBe(second);
    await expect(defaultWhatsapp(t.app.ctx, otherCompanyId)).rejects.toMatchObject({ code: 'ERR_NO_DEF_WAPP_FOUND' });
  });

  it('edits every field through PUT, keeping what the request leaves out', async () => {
    const res = await put(admin, first, {
      name: 'Principal editada',
      complationMessage: 'Tchau!',
      ratingMessage: 'Dê uma nota de 0 a 10',
      expiresTicketNPS: 30,
      expiresTicket: 60,
      whenExpiresTicket: '1',
      timeInactiveMessage: 10,
      inactiveMessage: 'Ainda está aí?',
      groupAsTicket: 'enabled',
      allowGroup: true,
      timeCreateNewTicket: '15',
      schedules: [{ weekday: 'Segunda', weekdayEn: 'monday', startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Principal editada',
      greetingMessage: 'Olá {{name}}!',
      expiresTicketNPS: 30,
      whenExpiresTicket: '1',
      timeCreateNewTicket: 15,
      groupAsTicket: 'enabled',
      schedules: [{ weekdayEn: 'monday' }],
    });
    expect(issuesOf(await put(admin, first, { name: 'X' }))).toContain('name:Too Short!');
  });

  it('shows the token and QR only to those who may edit connections', async () => {
    const plain = await createPlainUser(t, companyId);
    const manager = await createPlainUser(t, companyId, { allowConnections: 'enabled' });
    await t.db.update(whatsapps).set({ qrcode: 'https://wa.me/settings/linked_devices#QR' }).where(eq(whatsapps.id, first));

    const asPlain = (await t.app.inject({ url: '/whatsapp/?session=0', headers: bearer(plain.token) })).json() as Record<string, unknown>[];
    expect(asPlain.length).toBe(2);
    for (const w of asPlain) {
      expect(w).not.toHaveProperty('token');
      expect(w).not.toHaveProperty('qrcode');
    }
    const asManager = (await t.app.inject({ url: '/whatsapp', headers: bearer(manager.token) })).json() as Record<string, unknown>[];
    expect(asManager.every((w) => typeof w.token === 'string')).toBe(true);
    expect(asManager.find((w) => w.id === first)?.qrcode).toContain('linked_devices');

    expect((await post(plain, valid({ name: 'Não pode' }))).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await put(plain, first, { name: 'Não pode' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/whatsapp-restart/', headers: bearer(plain.token) })).statusCode).toBe(403);
  });

  it('never lets the Baileys session or the Page token leave the server', async () => {
    await t.db
      .insert(whatsappSessions)
      .values({ whatsappId: first, key: 'creds', value: JSON.stringify({ noiseKey: { private: SESSION_SECRET } }) })
      .onConflictDoUpdate({ target: [whatsappSessions.whatsappId, whatsappSessions.key], set: { value: JSON.stringify({ noiseKey: { private: SESSION_SECRET } }) } });
    const fb = await createConnection(t.db, companyId, { facebookPageToken: 'PAGE-TOKEN-SECRET' });

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const socket = connectSocket(port, companyId, { userId: String(admin.user.id), token: `Bearer ${admin.token}` });
    await nextEvent(socket, 'connect');
    const seen: string[] = [];
    socket.onAny((event: string, payload: unknown) => seen.push(`${event} ${JSON.stringify(payload)}`));
    const whatsappEvents = collect<{ whatsapp: Record<string, unknown> }>(socket, `company-${companyId}-whatsapp`);
    await put(admin, first, { name: 'Renomeada' });
    await sleep(200);
    socket.disconnect();

    const superUser = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const bodies = [
      (await t.app.inject({ url: '/whatsapp', headers: bearer(admin.token) })).body,
      (await t.app.inject({ url: `/whatsapp/${first}`, headers: bearer(admin.token) })).body,
      (await t.app.inject({ url: `/whatsapp/${fb.id}`, headers: bearer(admin.token) })).body,
      (await t.app.inject({ url: '/whatsapp/filter?channel=facebook', headers: bearer(admin.token) })).body,
      (await t.app.inject({ url: '/whatsapp/all/?session=0', headers: bearer(superUser.token) })).body,
      ...seen,
    ];
    for (const body of bodies) {
      expect(body).not.toContain(SESSION_SECRET);
      expect(body).not.toContain('PAGE-TOKEN-SECRET');
      expect(body).not.toContain('noiseKey');
    }
    expect(whatsappEvents.length).toBeGreaterThan(0);
    expect(whatsappEvents[0]!.whatsapp).not.toHaveProperty('token');
    // The QR comes by whatsappSession only: an update must not blank the cached one.
    expect(whatsappEvents[0]!.whatsapp).not.toHaveProperty('qrcode');
  });

  it('lists every company’s connections for the super user only', async () => {
    const superUser = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const all = await t.app.inject({ url: '/whatsapp/all/?session=0', headers: bearer(superUser.token) });
    expect(all.statusCode).toBe(200);
    expect((all.json() as { companyId: number; company: { name: string } }[]).some((w) => w.companyId === companyId && w.company.name)).toBe(true);
    expect((await t.app.inject({ url: '/whatsapp/all', headers: bearer(admin.token) })).statusCode).toBe(403);
    const ofCompany = await t.app.inject({ url: `/whatsapp?companyId=${companyId}`, headers: bearer(superUser.token) });
    expect((ofCompany.json() as unknown[]).length).toBeGreaterThan(0);
    // A company id in the query means nothing for anyone else.
    const ignored = await t.app.inject({ url: `/whatsapp?companyId=${companyId}`, headers: bearer(other.token) });
    expect(ignored.json()).toEqual([]);
  });

  it('answers 404 ERR_NO_WAPP_FOUND for another company’s connection, whatever the verb', async () => {
    const calls = [
      { method: 'GET' as const, url: `/whatsapp/${first}` },
      { method: 'PUT' as const, url: `/whatsapp/${first}`, payload: { name: 'Invasão' } },
      { method: 'DELETE' as const, url: `/whatsapp/${first}` },
      { method: 'POST' as const, url: `/whatsappsession/${first}` },
      { method: 'DELETE' as const, url: `/whatsappsession/${first}` },
      { method: 'POST' as const, url: `/closedimported/${first}` },
    ];
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: bearer(other.token) });
      expect(res.statusCode, call.url).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_WAPP_FOUND' });
    }
    expect((await reloadConnection(t.db, first))?.name).toBe('Renomeada');
  });

  it('accepts an image or video as greeting media, refusing other types and oversized files', async () => {
    const url = `/whatsapp/${first}/media-upload`;
    const png = multipart('file', 'promo.png', 'image/png', PNG);
    const ok = await t.app.inject({ method: 'POST', url, headers: { ...bearer(admin.token), ...png.headers }, payload: png.payload });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().greetingMediaAttachment).toMatch(/^[0-9a-f]{32}\.png$/);
    const pdf = multipart('file', 'doc.pdf', 'application/pdf', Buffer.from('%PDF-1.4'));
    const refused = await t.app.inject({ method: 'POST', url, headers: { ...bearer(admin.token), ...pdf.headers }, payload: pdf.payload });
    expect(refused.json()).toEqual({ error: 'ERR_INVALID_MEDIA_TYPE' });
    const big = multipart('file', 'big.mp4', 'video/mp4', Buffer.alloc(1.5 * 1024 * 1024));
    const tooBig = await t.app.inject({ method: 'POST', url, headers: { ...bearer(admin.token), ...big.headers }, payload: big.payload });
    expect(tooBig.statusCode).toBe(413);
    const removed = await t.app.inject({ method: 'DELETE', url, headers: bearer(admin.token) });
    expect(removed.json().greetingMediaAttachment).toBeNull();
  });

  it('enforces the plan: channel flags and the connection limit', async () => {
    const [noWa] = await t.db.insert(plans).values({ name: 'Sem WhatsApp', connections: 5, useWhatsapp: false }).returning();
    const c = await createCompanyWithAdmin(t.db, { planId: noWa!.id });
    const a = await login(t.app, c.email, c.password);
    const denied = await post(a, valid());
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED' });

    // The plan of the main company allows 4; it has 3 (two WhatsApp and one Page).
    expect((await post(admin, valid({ name: 'Quarta' }))).statusCode).toBe(200);
    const over = await post(admin, valid({ name: 'Quinta' }));
    expect(over.statusCode).toBe(403);
    expect(over.json()).toEqual({ error: 'ERR_CONNECTION_LIMIT_REACHED' });
  });

  it('tells open screens about the connection that lost the default mark', async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const socket = connectSocket(port, companyId, { userId: String(admin.user.id), token: `Bearer ${admin.token}` });
    await nextEvent(socket, 'connect');
    const events = collect<{ action: string; whatsapp: { id: number; isDefault: boolean } }>(socket, `company-${companyId}-whatsapp`);
    const current = await defaultWhatsapp(t.app.ctx, companyId);
    const other = current.id === first ? second : first;
    expect((await put(admin, other, { isDefault: true })).statusCode).toBe(200);
    await sleep(300);
    socket.disconnect();
    const latest = new Map(events.map((e) => [e.whatsapp.id, e.whatsapp.isDefault]));
    expect(latest.get(other)).toBe(true);
    expect(latest.get(current.id)).toBe(false);
    // Leave the default where the next tests expect it.
    expect((await put(admin, current.id, { isDefault: true })).statusCode).toBe(200);
  });

  it('deletes a non-default connection and closes its session', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/whatsapp/${first}`, headers: bearer(admin.token) });
    expect(res.statusCode).toBe(200);
    expect(await reloadConnection(t.db, first)).toBeUndefined();
    expect(await t.db.select().from(whatsappSessions).where(eq(whatsappSessions.whatsappId, first))).toEqual([]);
  });
});

describe('session actions', () => {
  it('starts, renews (new QR) and disconnects a session', async () => {
    const id = (await defaultWhatsapp(t.app.ctx, companyId)).id;
    const before = sockets.sockets.length;
    expect((await t.app.inject({ method: 'POST', url: `/whatsappsession/${id}`, headers: bearer(admin.token) })).json()).toEqual({ message: 'Starting session.' });
    await eventually(async () => sockets.sockets.length > before);
    const live = sockets.last();
    await live.emit('connection.update', { qr: 'https://wa.me/settings/linked_devices#abc' });
    expect(await reloadConnection(t.db, id)).toMatchObject({ status: 'qrcode', qrcode: 'https://wa.me/settings/linked_devices#abc', retries: 1 });

    expect((await t.app.inject({ method: 'PUT', url: `/whatsappsession/${id}`, headers: bearer(admin.token) })).statusCode).toBe(200);
    expect(live.loggedOut).toBe(true);
    await eventually(async () => sockets.last() !== live);

    expect((await t.app.inject({ method: 'DELETE', url: `/whatsappsession/${id}`, headers: bearer(admin.token) })).json()).toEqual({ message: 'Session disconnected.' });
    expect(await reloadConnection(t.db, id)).toMatchObject({ status: 'DISCONNECTED', qrcode: '' });
    const restart = await t.app.inject({ method: 'POST', url: '/whatsapp-restart/', headers: bearer(admin.token) });
    expect(restart.statusCode).toBe(200);
  });

  it('closes the tickets an import created', async () => {
    const id = (await defaultWhatsapp(t.app.ctx, companyId)).id;
    await t.db.update(whatsapps).set({ statusImportMessages: 'renderButtonCloseTickets' }).where(eq(whatsapps.id, id));
    const [contact] = await t.db.insert(contacts).values({ companyId, name: 'Imp', number: '5511000000001' }).returning();
    await t.db.insert(tickets).values({ companyId, contactId: contact!.id, whatsappId: id, importedAt: new Date() });
    const res = await t.app.inject({ method: 'POST', url: `/closedimported/${id}`, headers: bearer(admin.token) });
    expect(res.json()).toEqual({ message: '1 imported ticket(s) closed.' });
    expect((await reloadConnection(t.db, id))?.statusImportMessages).toBeNull();
    expect((await t.db.select().from(tickets).where(eq(tickets.contactId, contact!.id)))[0]?.status).toBe('closed');
  });
});

describe('POST /facebook', () => {
  it('exchanges the user token, subscribes each Page and creates one connection per Page', async () => {
    const c = await createCompanyWithAdmin(t.db);
    const a = await login(t.app, c.email, c.password);
    const res = await t.app.inject({ method: 'POST', url: '/facebook', headers: bearer(a.token), payload: { facebookUserId: '123', facebookUserToken: 'EAAuser-short-lived' } });
    expect(res.statusCode).toBe(200);
    const created = res.json() as { channel: string; facebookPageId: string; status: string; isDefault: boolean }[];
    expect(created.map((w) => w.facebookPageId).sort()).toEqual(['1000001', '1000002']);
    expect(created.every((w) => w.channel === 'facebook' && w.status === 'CONNECTED')).toBe(true);
    expect(res.body).not.toContain('EAAG');
    expect(graph.requests.filter((r) => r.path.endsWith('/subscribed_apps'))).toHaveLength(2);
    const exchange = graph.requests.find((r) => r.path === '/v21.0/oauth/access_token');
    expect(exchange?.query.get('grant_type')).toBe('fb_exchange_token');

    // Again, with Instagram: the one Page with a linked account gives one IG connection; Pages are not duplicated.
    const again = await t.app.inject({ method: 'POST', url: '/facebook', headers: bearer(a.token), payload: { facebookUserId: '123', facebookUserToken: 'EAAuser-short-lived', addInstagram: true } });
    expect(again.json()).toMatchObject([{ channel: 'instagram', instagramAccountId: '1700001', facebookPageId: '1000001' }]);
    const repeat = await t.app.inject({ method: 'POST', url: '/facebook', headers: bearer(a.token), payload: { facebookUserId: '123', facebookUserToken: 'EAAuser-short-lived' } });
    expect(repeat.statusCode).toBe(200);
    expect(await t.db.select().from(whatsapps).where(eq(whatsapps.companyId, c.company.id))).toHaveLength(3);

    // The same Pages cannot be connected by another company.
    const taken = await t.app.inject({ method: 'POST', url: '/facebook', headers: bearer(other.token), payload: { facebookUserId: '9', facebookUserToken: 'EAAother-user' } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: 'ERR_PAGE_ALREADY_CONNECTED' });
  });
});
