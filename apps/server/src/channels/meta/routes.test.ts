import { and, count, eq } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, inboundEvents, messages, tickets } from '../../db/schema/index.js';
import { connectSocket, createCompanyWithAdmin, createTestApp, login, nextEvent, collect, sleep, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { fixture } from '../../../test/fixtures.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { APP_SECRET, messengerText, metaEnv, postWebhook, VERIFY_TOKEN } from '../../../test/fakes/meta-webhook.js';
import { inboundQueue } from '../../modules/conversations/ingest.js';
import { signBody } from './signature.js';
import { users } from '../../db/schema/index.js';
import { hashPassword } from '../../db/passwords.js';

let t: TestApp;
let graph: FakeGraph;
let port: number;
let companyId: number;
let pageId: string;
let whatsappId: number;
let adminSocket: Socket;
let plainSocket: Socket;
let otherSocket: Socket;

const countOf = async (table: typeof messages | typeof tickets | typeof contacts | typeof inboundEvents) =>
  (await t.db.select({ n: count() }).from(table))[0]?.n ?? 0;
const messagesOf = (wid: string) => t.db.select().from(messages).where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)));
/** A fixture addressed to our test Page. */
const retarget = <T>(body: T, page = pageId): T => JSON.parse(JSON.stringify(body).replaceAll('"1000001"', `"${page}"`)) as T;

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp(metaEnv(graph.url));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;

  const a = await createCompanyWithAdmin(t.db);
  companyId = a.company.id;
  const conn = await createConnection(t.db, companyId);
  pageId = conn.facebookPageId!;
  whatsappId = conn.id;
  const adminA = await login(t.app, a.email, a.password);
  await t.db.insert(users).values({ companyId, name: 'Plain', email: `plain-${companyId}@example.com`, passwordHash: await hashPassword('secret1') });
  const plain = await login(t.app, `plain-${companyId}@example.com`, 'secret1');
  const b = await createCompanyWithAdmin(t.db);
  const adminB = await login(t.app, b.email, b.password);

  adminSocket = connectSocket(port, companyId, { userId: String(adminA.user.id), token: `Bearer ${adminA.token}` });
  plainSocket = connectSocket(port, companyId, { userId: String(plain.user.id), token: `Bearer ${plain.token}` });
  otherSocket = connectSocket(port, b.company.id, { userId: String(adminB.user.id), token: `Bearer ${adminB.token}` });
  await Promise.all([adminSocket, plainSocket, otherSocket].map((s) => nextEvent(s, 'connect')));
});

afterAll(async () => {
  for (const s of [adminSocket, plainSocket, otherSocket]) s?.disconnect();
  await t.close();
  await graph.close();
});

describe('GET /webhook (subscription handshake)', () => {
  it('echoes hub.challenge for our VERIFY_TOKEN and refuses anything else', async () => {
    const ok = await t.app.inject({ url: `/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=12345` });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('12345');
    const bad = await t.app.inject({ url: '/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=12345' });
    expect(bad.statusCode).toBe(403);
  });
});

describe('POST /webhook', () => {
  it('stores a signed text as contact, ticket and message, and tells only allowed sockets', async () => {
    const ticketEvents = collect(adminSocket, `company-${companyId}-ticket`);
    const plainSeen = collect(plainSocket, `company-${companyId}-appMessage`);
    const otherSeen: unknown[] = [];
    otherSocket.onAny((event: string, payload: unknown) => {
      if (!event.endsWith('-user')) otherSeen.push({ event, payload });
    });
    const appMessage = nextEvent<{ action: string; message: { body: string; mediaType: string }; ticket: { status: string }; contact: { name: string } }>(
      adminSocket,
      `company-${companyId}-appMessage`,
    );

    const res = await postWebhook(t.app, retarget(fixture('meta/messenger-text.json')));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('EVENT_RECEIVED');

    const event = await appMessage;
    expect(event.action).toBe('create');
    expect(event.message.mediaType).toBe('chat');
    expect(event.message.body.length).toBeGreaterThan(0);
    expect(event.ticket.status).toBe('pending');
    // First contact: the name comes from the Graph profile lookup.
    expect(event.contact.name).toBe('Maria Silva');
    expect(ticketEvents.length).toBeGreaterThan(0);

    const [contact] = await t.db.select().from(contacts).where(and(eq(contacts.companyId, companyId), eq(contacts.number, '2000001')));
    expect(contact).toMatchObject({ channel: 'facebook', name: 'Maria Silva', isGroup: false });
    const [ticket] = await t.db.select().from(tickets).where(eq(tickets.contactId, contact!.id));
    expect(ticket).toMatchObject({ status: 'pending', whatsappId, unreadMessages: 1, channel: 'facebook' });

    await sleep(200);
    expect(plainSeen).toEqual([]);
    expect(otherSeen).toEqual([]);
  });

  it('stores a redelivered event once', async () => {
    const body = retarget(messengerText('1000001', '2000002', 'm_redelivered_1', 'Olá de novo'));
    for (let i = 0; i < 3; i++) expect((await postWebhook(t.app, body)).statusCode).toBe(200);
    await eventually(async () => (await messagesOf('m_redelivered_1')).length > 0);
    await sleep(300);
    expect(await messagesOf('m_redelivered_1')).toHaveLength(1);
  });

  it('turns 50 concurrent first messages of one new contact into one contact and one ticket', async () => {
    const sender = '2999999';
    const posts = Array.from({ length: 50 }, (_, i) => postWebhook(t.app, retarget(messengerText('1000001', sender, `m_burst_${i}`, `burst ${i}`))));
    const answers = await Promise.all(posts);
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);

    const stored = () => t.db.select({ n: count() }).from(messages).innerJoin(contacts, eq(contacts.id, messages.contactId)).where(eq(contacts.number, sender));
    await eventually(async () => (await stored())[0]?.n === 50, 15_000);
    const found = await t.db.select().from(contacts).where(and(eq(contacts.companyId, companyId), eq(contacts.number, sender)));
    expect(found).toHaveLength(1);
    const ticketRows = await t.db.select().from(tickets).where(eq(tickets.contactId, found[0]!.id));
    expect(ticketRows).toHaveLength(1);
    expect(ticketRows[0]!.unreadMessages).toBe(50);
  });

  it('refuses a missing (401) or wrong (403) signature and stores nothing', async () => {
    const before = { events: await countOf(inboundEvents), messages: await countOf(messages) };
    const body = retarget(messengerText('1000001', '2000003', 'm_unsigned', 'hack'));
    const missing = await postWebhook(t.app, body, null);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ error: 'ERR_INVALID_SIGNATURE' });
    const wrong = await postWebhook(t.app, body, 'sha256=' + '0'.repeat(64));
    expect(wrong.statusCode).toBe(403);
    // Signed over other bytes than those sent.
    const tampered = await postWebhook(t.app, JSON.stringify(body).replace('hack', 'hacked'), signBody(APP_SECRET, JSON.stringify(body)));
    expect(tampered.statusCode).toBe(403);
    // The right digest, spelled otherwise: upper-case hex, no prefix, cut short.
    const right = signBody(APP_SECRET, JSON.stringify(body));
    for (const header of [right.toUpperCase(), right.slice('sha256='.length), right.slice(0, -2), `sha1=${right.slice('sha256='.length)}`]) {
      const refused = await postWebhook(t.app, body, header);
      expect(refused.statusCode, header).toBe(403);
      expect(refused.json()).toEqual({ error: 'ERR_INVALID_SIGNATURE' });
    }
    await sleep(100);
    expect({ events: await countOf(inboundEvents), messages: await countOf(messages) }).toEqual(before);
  });

  it('answers 400 for malformed bodies, storing nothing', async () => {
    const before = await countOf(inboundEvents);
    const notJson = await postWebhook(t.app, '{not json');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toEqual({ error: 'ERR_VALIDATION', message: 'body is not JSON' });
    expect((await postWebhook(t.app, { object: 'page', entry: 'nope' })).statusCode).toBe(400);
    expect((await postWebhook(t.app, { hello: 'world' })).statusCode).toBe(400);
    // Each refused with the field that fails.
    const entry = (fields: Record<string, unknown>) => ({ object: 'page', entry: [{ id: pageId, ...fields }] });
    for (const [body, path] of [
      [{ object: 'whatsapp_business_account', entry: [{ id: pageId }] }, 'object'],
      [{ object: 'page', entry: [] }, 'entry'],
      [{ object: 'page', entry: [null] }, 'entry.0'],
      [entry({ id: true }), 'entry.0.id'],
      [entry({ time: null }), 'entry.0.time'],
      [entry({ messaging: null }), 'entry.0.messaging'],
      [entry({ messaging: ['text'] }), 'entry.0.messaging.0'],
      [entry({ messaging: Array.from({ length: 1001 }, () => ({})) }), 'entry.0.messaging'],
    ] as const) {
      const refused = await postWebhook(t.app, body);
      expect(refused.statusCode, path).toBe(400);
      const answer = refused.json<{ error: string; issues: { path: string }[] }>();
      expect(answer.error).toBe('ERR_VALIDATION');
      expect(answer.issues.map((i) => i.path)).toEqual([path]);
    }
    expect(await countOf(inboundEvents)).toBe(before);
  });

  it('acknowledges (200) and counts a webhook for a Page or Instagram account we do not serve, creating nothing', async () => {
    // A non-200 makes Meta retry for hours and finally disable the app's subscription.
    const counts = async () => ({ events: await countOf(inboundEvents), contacts: await countOf(contacts), tickets: await countOf(tickets), messages: await countOf(messages) });
    const before = await counts();
    const counted = inboundQueue(t.app.ctx).unknownAccounts;
    const page = await postWebhook(t.app, messengerText('9999999999', '2000004', 'm_unknown_page', 'oi'));
    expect(page.statusCode).toBe(200);
    const ig = await postWebhook(t.app, JSON.parse(JSON.stringify(fixture('meta/instagram-text.json')).replaceAll('"1700001"', '"8888888888"')) as object);
    expect(ig.statusCode).toBe(200);
    await sleep(150);
    expect(await counts()).toEqual(before);
    expect(inboundQueue(t.app.ctx).unknownAccounts).toBe(counted + 2);
  });

  it('downloads an attachment into DATA_DIR/public/company{id} under an unguessable name', async () => {
    const body = retarget(fixture<{ entry: { messaging: { message: { attachments: { payload: { url: string } }[] } }[] }[] }>('meta/messenger-image.json'));
    body.entry[0]!.messaging[0]!.message.attachments[0]!.payload.url = graph.mediaUrl('photo.png');
    expect((await postWebhook(t.app, body)).statusCode).toBe(200);
    const [row] = await eventually(async () => {
      const rows = await t.db.select().from(messages).where(eq(messages.mediaType, 'image'));
      return rows.length ? rows : undefined;
    });
    expect(row!.mediaUrl).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(existsSync(t.app.ctx.storage.pathOf(companyId, row!.mediaUrl!))).toBe(true);
  });

  it('applies edits, deletions, reactions and delivery / read receipts to the stored messages', async () => {
    const edit = retarget(fixture<{ entry: { messaging: { message_edit: { mid: string } }[] }[] }>('meta/messenger-message-edit.json'));
    const mid = edit.entry[0]!.messaging[0]!.message_edit.mid;
    await postWebhook(t.app, retarget(messengerText('1000001', '2000001', mid, 'texto original')));
    await eventually(async () => (await messagesOf(mid)).length > 0);
    await postWebhook(t.app, edit);
    const edited = await eventually(async () => (await messagesOf(mid)).find((m) => m.isEdited));
    expect(edited.body).toContain('#4512');

    await postWebhook(t.app, retarget(fixture('meta/messenger-reaction.json')));
    const reaction = await eventually(async () => (await t.db.select().from(messages).where(eq(messages.mediaType, 'reactionMessage')))[0]);
    expect(reaction.body).toBe('❤️');

    // Our reply (an outbox row already sent) then Meta's delivery and read receipts.
    const [ours] = await t.db
      .insert(messages)
      .values({ companyId, ticketId: edited.ticketId, whatsappId, wid: 'm_lE3wwX4KPRj81Tq4jADaA6XIQIRsVZxnj430q7myd22VYaKiNcKGOv56z1HarWubSg_cOn1uYjbE8m0D3wM0pA', body: 'resposta', fromMe: true, ack: 1, sendStatus: 'sent', createdAt: new Date(1750000450000) })
      .onConflictDoNothing()
      .returning();
    expect(ours).toBeDefined();
    await postWebhook(t.app, retarget(fixture('meta/messenger-delivery.json')));
    await eventually(async () => (await t.db.select().from(messages).where(eq(messages.id, ours!.id)))[0]?.ack === 2);
    await postWebhook(t.app, retarget(fixture('meta/messenger-read.json')));
    await eventually(async () => (await t.db.select().from(messages).where(eq(messages.id, ours!.id)))[0]?.ack === 3);
  });
});
