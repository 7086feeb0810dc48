import type { AppMessageEventPayload, Message } from '@balcao/contracts';
import type { BaileysEventMap } from '@whiskeysockets/baileys';
import { and, eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, tickets, whatsapps } from '../../db/schema/index.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { fixture } from '../../../test/fixtures.js';
import { FakeGraph, PNG } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { fakeSocketFactory } from '../../../test/fakes/wa-socket.js';
import { multipart } from '../../../test/multipart.js';
import { createPlainUser, listen, openSocket } from '../../../test/roles.js';
import { processInbound } from '../conversations/inbound.js';

let t: TestApp;
let graph: FakeGraph;
const factory = fakeSocketFactory();
let admin: LoggedIn;
let plain: LoggedIn;
let otherAdmin: LoggedIn;
let companyId: number;
let conn: typeof whatsapps.$inferSelect;
let socket: Socket;
let seq = 4_000_000;

const auth = (s: LoggedIn) => bearer(s.token);
const reload = async (id: number) => (await t.db.select().from(messages).where(eq(messages.id, id)))[0]!;
const sendsTo = (number: string) => graph.sends().filter((s) => (s.body as { recipient: { id: string } }).recipient.id === number);

async function newContact(channel: 'facebook' | 'whatsapp' = 'facebook', over: Partial<typeof contacts.$inferInsert> = {}) {
  seq += 1;
  const number = channel === 'whatsapp' ? `55119${seq}` : String(seq);
  const [contact] = await t.db
    .insert(contacts)
    .values({ companyId, channel, name: `Cliente ${seq}`, number, remoteJid: channel === 'whatsapp' ? `${number}@s.whatsapp.net` : number, ...over })
    .returning();
  return contact!;
}

async function newTicket(over: Partial<typeof tickets.$inferInsert> = {}, connection = conn) {
  const contact = await newContact(connection.channel === 'whatsapp' ? 'whatsapp' : 'facebook');
  const [ticket] = await t.db
    .insert(tickets)
    .values({ companyId, contactId: contact.id, whatsappId: connection.id, channel: connection.channel, status: 'open', userId: admin.user.id, ...over })
    .returning();
  return { contact, ticket: ticket! };
}

/** An own message sent through the API and acknowledged by the channel. */
async function sentMessage(ticketId: number, body = 'Olá!') {
  const res = await t.app.inject({ method: 'POST', url: `/messages/${ticketId}`, headers: auth(admin), payload: { body } });
  expect(res.statusCode).toBe(200);
  const id = res.json<Message>().id;
  await eventually(async () => (await reload(id)).sendStatus === 'sent');
  return reload(id);
}

/** The first appMessage update of this message matching `expected` (the send's own update may come first). */
function messageUpdate(id: number, expected: Partial<Message>): Promise<AppMessageEventPayload> {
  return new Promise((resolve, reject) => {
    const event = `company-${companyId}-appMessage`;
    const timer = setTimeout(() => reject(new Error(`no update of message ${id} with ${JSON.stringify(expected)}`)), 3000);
    const listener = (payload: AppMessageEventPayload) => {
      const m = payload.message;
      if (payload.action !== 'update' || m.id !== id || !Object.entries(expected).every(([k, v]) => m[k as keyof Message] === v)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}

const edit = (s: LoggedIn, id: number, body: string) => t.app.inject({ method: 'POST', url: `/messages/edit/${id}`, headers: auth(s), payload: { body } });
const remove = (s: LoggedIn, id: number) => t.app.inject({ method: 'DELETE', url: `/messages/${id}`, headers: auth(s) });
const forward = (s: LoggedIn, payload: object) => t.app.inject({ method: 'POST', url: '/message/forward', headers: auth(s), payload });

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' }, { channels: { makeWaSocket: factory } });
  const own = await createCompanyWithAdmin(t.db);
  const other = await createCompanyWithAdmin(t.db);
  companyId = own.company.id;
  admin = await login(t.app, own.email, own.password);
  otherAdmin = await login(t.app, other.email, other.password);
  plain = await createPlainUser(t, companyId);
  conn = await createConnection(t.db, companyId);
  socket = await openSocket(await listen(t), admin);
});

afterAll(async () => {
  socket?.disconnect();
  await t.close();
  await graph.close();
});

describe('POST /messages/edit/{messageId}', () => {
  it('edits an own text within 15 minutes (stored only on Messenger) and announces it', async () => {
    const { ticket } = await newTicket();
    const message = await sentMessage(ticket.id, 'Preço: 10');
    const graphCalls = graph.requests.length;
    const updated = messageUpdate(message.id, { isEdited: true });
    const res = await edit(admin, message.id, 'Preço: 12');
    expect(res.statusCode).toBe(200);
    expect(res.json<Message>()).toMatchObject({ id: message.id, body: 'Preço: 12', isEdited: true });
    expect(await updated).toMatchObject({ action: 'update', message: { id: message.id, body: 'Preço: 12', isEdited: true, ticket: { uuid: ticket.uuid } } });
    expect((await t.db.select().from(tickets).where(eq(tickets.id, ticket.id)))[0]!.lastMessage).toBe('Preço: 12');
    await sleep(100);
    expect(graph.requests.length).toBe(graphCalls);
  });

  it('refuses after the 15-minute window, on the customer’s messages, blank texts and files', async () => {
    const { ticket, contact } = await newTicket();
    const message = await sentMessage(ticket.id, 'Antigo');
    await t.db.update(messages).set({ createdAt: new Date(Date.now() - 16 * 60_000) }).where(eq(messages.id, message.id));
    const late = await edit(admin, message.id, 'Novo');
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({ error: 'ERR_EDIT_WINDOW_EXPIRED' });
    expect((await reload(message.id)).body).toBe('Antigo');

    const [theirs] = await t.db.insert(messages).values({ companyId, ticketId: ticket.id, contactId: contact.id, body: 'do cliente' }).returning();
    expect((await edit(admin, theirs!.id, 'mudado')).statusCode).toBe(403);
    const recent = await sentMessage(ticket.id, 'Recente');
    expect((await edit(admin, recent.id, '  ')).json()).toEqual({ error: 'ERR_EMPTY_MESSAGE' });
    const [image] = await t.db.insert(messages).values({ companyId, ticketId: ticket.id, body: 'legenda', fromMe: true, mediaType: 'image', mediaUrl: 'x.png' }).returning();
    expect((await edit(admin, image!.id, 'nova legenda')).statusCode).toBe(400);
    expect((await reload(theirs!.id)).body).toBe('do cliente');
  });

  it('403 for a user who may not see the ticket, 404 for another company or an unknown id', async () => {
    const { ticket } = await newTicket();
    const message = await sentMessage(ticket.id, 'Oi');
    expect((await edit(plain, message.id, 'x')).statusCode).toBe(403);
    const foreign = await edit(otherAdmin, message.id, 'x');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'ERR_NO_MESSAGE_FOUND' });
    expect((await edit(admin, 2_000_000_000, 'x')).statusCode).toBe(404);
    expect(await reload(message.id)).toMatchObject({ body: 'Oi', isEdited: false });
  });
});

describe('DELETE /messages/{id}', () => {
  it('marks an own message deleted (the row stays) and announces it as an update', async () => {
    const { ticket } = await newTicket();
    const message = await sentMessage(ticket.id, 'Apagar');
    const updated = messageUpdate(message.id, { isDeleted: true });
    const res = await remove(admin, message.id);
    expect(res.statusCode).toBe(200);
    expect(res.json<Message>()).toMatchObject({ id: message.id, isDeleted: true });
    expect(await updated).toMatchObject({ action: 'update', message: { id: message.id, isDeleted: true } });
    expect(await reload(message.id)).toMatchObject({ isDeleted: true, body: 'Apagar' });
  });

  it('refuses the customer’s messages (403), hidden tickets (403) and other companies (404)', async () => {
    const { ticket, contact } = await newTicket();
    const [theirs] = await t.db.insert(messages).values({ companyId, ticketId: ticket.id, contactId: contact.id, body: 'do cliente' }).returning();
    const refused = await remove(admin, theirs!.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const own = await sentMessage(ticket.id, 'meu');
    expect((await remove(plain, own.id)).statusCode).toBe(403);
    expect((await remove(otherAdmin, own.id)).statusCode).toBe(404);
    expect((await remove(admin, 2_000_000_000)).json()).toEqual({ error: 'ERR_NO_MESSAGE_FOUND' });
    expect((await reload(theirs!.id)).isDeleted).toBe(false);
    expect((await reload(own.id)).isDeleted).toBe(false);
  });
});

describe('WhatsApp edits, deletes and contact cards', () => {
  it('sends the edit, the delete and the card through Baileys', async () => {
    const waConn = await createConnection(t.db, companyId, { channel: 'whatsapp', status: 'OPENING' });
    await t.app.ctx.channels.whatsapp.start(waConn);
    const sock = factory.last();
    await sock.emit('connection.update', fixture<BaileysEventMap['connection.update']>('baileys/connection-update-qr.json'));
    await sock.emit('connection.update', fixture<BaileysEventMap['connection.update']>('baileys/connection-update-open.json'));
    const { ticket, contact } = await newTicket({}, waConn);
    const jid = contact.remoteJid;

    const message = await sentMessage(ticket.id, 'Oi');
    expect((await edit(admin, message.id, 'Oi, tudo bem?')).statusCode).toBe(200);
    expect(sock.sent.at(-1)).toMatchObject({ jid, content: { text: 'Oi, tudo bem?', edit: { remoteJid: jid, id: message.wid, fromMe: true } } });
    expect((await remove(admin, message.id)).statusCode).toBe(200);
    expect(sock.sent.at(-1)).toMatchObject({ jid, content: { delete: { remoteJid: jid, id: message.wid, fromMe: true } } });

    const card = await t.app.inject({ method: 'POST', url: `/messages/${ticket.id}`, headers: auth(admin), payload: { vCard: { contact: { name: 'Ana Lima', number: '5511988887777' } } } });
    expect(card.statusCode).toBe(200);
    await eventually(async () => sock.sent.some((s) => 'contacts' in s.content));
    const sent = sock.sent.find((s) => 'contacts' in s.content)!;
    expect(sent.content).toMatchObject({ contacts: { displayName: 'Ana Lima', contacts: [{ vcard: expect.stringContaining('TEL;type=CELL;waid=5511988887777:+5511988887777') }] } });
  });

  it('answers 400 ERR_EDIT_WAPP_MSG / ERR_DELETE_WAPP_MSG and stores nothing when WhatsApp refuses (disconnected)', async () => {
    const waConn = await createConnection(t.db, companyId, { channel: 'whatsapp', status: 'DISCONNECTED' });
    const { ticket } = await newTicket({}, waConn);
    const [message] = await t.db.insert(messages).values({ companyId, ticketId: ticket.id, whatsappId: waConn.id, body: 'Oi', fromMe: true, wid: 'WA1', sendStatus: 'sent', ack: 1 }).returning();
    const res = await edit(admin, message!.id, 'Oi!');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_EDIT_WAPP_MSG' });
    expect(await reload(message!.id)).toMatchObject({ body: 'Oi', isEdited: false });
    const removed = await remove(admin, message!.id);
    expect(removed.statusCode).toBe(400);
    expect(removed.json()).toMatchObject({ error: 'ERR_DELETE_WAPP_MSG' });
    expect(await reload(message!.id)).toMatchObject({ isDeleted: false });
  });
});

describe('POST /message/forward', () => {
  it('forwards to the contact’s new ticket (opened for the caller), then reuses it; signs when asked', async () => {
    const { ticket } = await newTicket();
    const source = await sentMessage(ticket.id, 'Promoção de hoje');
    const target = await newContact();

    const first = await forward(admin, { messageId: source.id, contactId: target.id, signMessage: false });
    expect(first.statusCode).toBe(200);
    const forwarded = first.json<Message>();
    expect(forwarded).toMatchObject({ body: 'Promoção de hoje', isForwarded: true, fromMe: true });
    const opened = await t.db.select().from(tickets).where(eq(tickets.contactId, target.id));
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ id: forwarded.ticketId, status: 'open', userId: admin.user.id, whatsappId: conn.id });
    await eventually(async () => sendsTo(target.number).length === 1);
    expect(sendsTo(target.number)[0]!.body).toMatchObject({ message: { text: 'Promoção de hoje' } });

    const second = await forward(admin, { messageId: source.id, contactId: target.id, signMessage: true });
    expect(second.json<Message>()).toMatchObject({ ticketId: forwarded.ticketId, body: `*${admin.user.name}:*\nPromoção de hoje`, isForwarded: true });
    expect(await t.db.select().from(tickets).where(eq(tickets.contactId, target.id))).toHaveLength(1);
  });

  it('forwards a file by reusing the stored one', async () => {
    const { ticket } = await newTicket();
    const form = multipart({ body: 'catálogo' }, { field: 'medias', name: 'catalogo.png', type: 'image/png', data: PNG });
    const sent = await t.app.inject({ method: 'POST', url: `/messages/${ticket.id}`, headers: { ...auth(admin), ...form.headers }, payload: form.payload });
    const source = sent.json<Message>();
    const target = await newContact();
    const res = await forward(admin, { messageId: String(source.id), contactId: String(target.id) });
    expect(res.statusCode).toBe(200);
    expect(res.json<Message>()).toMatchObject({ mediaType: 'image', mediaUrl: source.mediaUrl, body: 'catálogo', isForwarded: true });
    await eventually(async () => sendsTo(target.number).length === 2);
  });

  it('checks the message, the contact and the visibility (nothing is created on refusal)', async () => {
    const { ticket } = await newTicket();
    const source = await sentMessage(ticket.id, 'Segredo');
    const target = await newContact();
    const [note] = await t.db.insert(messages).values({ companyId, ticketId: ticket.id, body: 'nota', fromMe: true, isPrivate: true }).returning();
    const other = await createCompanyWithAdmin(t.db);
    const [foreignContact] = await t.db.insert(contacts).values({ companyId: other.company.id, channel: 'facebook', name: 'X', number: '77', remoteJid: '77' }).returning();
    const blocked = await newContact('facebook', { active: false });
    const waContact = await newContact('whatsapp');

    expect((await forward(plain, { messageId: source.id, contactId: target.id })).statusCode).toBe(403);
    expect((await forward(otherAdmin, { messageId: source.id, contactId: target.id })).json()).toEqual({ error: 'ERR_NO_MESSAGE_FOUND' });
    expect((await forward(admin, { messageId: source.id, contactId: foreignContact!.id })).json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
    expect((await forward(admin, { messageId: note!.id, contactId: target.id })).statusCode).toBe(400);
    expect((await forward(admin, { messageId: source.id, contactId: blocked.id })).json()).toEqual({ error: 'ERR_CONTACT_BLOCKED' });
    expect((await forward(admin, { messageId: source.id, contactId: waContact.id })).statusCode).toBe(400);
    expect((await forward(admin, { messageId: 'abc', contactId: target.id })).statusCode).toBe(400);

    for (const id of [target.id, foreignContact!.id, blocked.id, waContact.id]) {
      expect(await t.db.select().from(tickets).where(eq(tickets.contactId, id))).toEqual([]);
    }
    expect(await t.db.select().from(messages).where(and(eq(messages.isForwarded, true), eq(messages.ticketId, ticket.id)))).toEqual([]);
  });
});

describe('acks', () => {
  it('a delivery ack from the channel updates the message and announces it', async () => {
    const { ticket } = await newTicket();
    const message = await sentMessage(ticket.id, 'Chegou?');
    const updated = messageUpdate(message.id, { ack: 3 });
    await processInbound(t.app.ctx, conn, { kind: 'ack', wid: message.wid!, ack: 3 });
    expect(await updated).toMatchObject({ action: 'update', message: { id: message.id, ack: 3 } });
    expect((await reload(message.id)).ack).toBe(3);
  });
});
