import type { AppMessageEventPayload, ListMessagesResponse, Message, TicketEventPayload } from '@balcao/contracts';
import { count, eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companySettings, contacts, messages, queues, tickets, userQueues, whatsapps } from '../../db/schema/index.js';
import { processInbound } from '../conversations/inbound.js';
import { bearer, collect, createCompanyWithAdmin, createTestApp, login, nextEvent, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { FakeGraph, PNG } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { multipart } from '../../../test/multipart.js';
import { createPlainUser, listen, openSocket } from '../../../test/roles.js';

let t: TestApp;
let graph: FakeGraph;
let admin: LoggedIn;
let plain: LoggedIn;
let otherAdmin: LoggedIn;
let companyId: number;
let connId: number;
let socket: Socket;
let contactSeq = 3_000_000;

const auth = (s: LoggedIn) => bearer(s.token);

async function newTicket(over: Partial<typeof tickets.$inferInsert> = {}) {
  contactSeq += 1;
  const [contact] = await t.db
    .insert(contacts)
    .values({ companyId, channel: 'facebook', name: 'Maria Silva', number: String(contactSeq), remoteJid: String(contactSeq) })
    .returning();
  const [ticket] = await t.db
    .insert(tickets)
    .values({ companyId, contactId: contact!.id, whatsappId: connId, channel: 'facebook', status: 'open', userId: admin.user.id, ...over })
    .returning();
  return { contact: contact!, ticket: ticket! };
}

const ticketMessages = (ticketId: number) => t.db.select().from(messages).where(eq(messages.ticketId, ticketId)).orderBy(messages.id);
const sendsTo = (number: string) => graph.sends().filter((s) => (s.body as { recipient: { id: string } }).recipient.id === number);
const post = (s: LoggedIn, ticketRef: number | string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/messages/${ticketRef}`, headers: auth(s), payload });
const postForm = (s: LoggedIn, ticketRef: number, form: ReturnType<typeof multipart>) =>
  t.app.inject({ method: 'POST', url: `/messages/${ticketRef}`, headers: { ...auth(s), ...form.headers }, payload: form.payload });

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), UPLOAD_LIMIT_MB: '1', LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
  const own = await createCompanyWithAdmin(t.db);
  const other = await createCompanyWithAdmin(t.db);
  companyId = own.company.id;
  admin = await login(t.app, own.email, own.password);
  otherAdmin = await login(t.app, other.email, other.password);
  plain = await createPlainUser(t, companyId);
  connId = (await createConnection(t.db, companyId)).id;
  socket = await openSocket(await listen(t), admin);
});

afterAll(async () => {
  socket?.disconnect();
  await t.close();
  await graph.close();
});

describe('GET /messages/{ticketId}', () => {
  it('pages 20 at a time, newest page first, each page oldest → newest', async () => {
    const { ticket } = await newTicket();
    const start = Date.now() - 3600_000;
    await t.db.insert(messages).values(
      Array.from({ length: 45 }, (_, i) => ({ companyId, ticketId: ticket.id, body: `m${i}`, createdAt: new Date(start + i * 1000) })),
    );
    const page = async (n: number) => {
      const res = await t.app.inject({ method: 'GET', url: `/messages/${ticket.id}?pageNumber=${n}`, headers: auth(admin) });
      expect(res.statusCode).toBe(200);
      return res.json<ListMessagesResponse>();
    };
    const one = await page(1);
    expect(one.messages.map((m) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `m${25 + i}`));
    expect(one).toMatchObject({ count: 45, hasMore: true, ticket: { id: ticket.id, uuid: ticket.uuid } });
    expect((await page(2)).messages.map((m) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `m${5 + i}`));
    const three = await page(3);
    expect(three.messages.map((m) => m.body)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(three.hasMore).toBe(false);
    expect((await page(4)).messages).toEqual([]);
  });

  it('takes the uuid as well as the id; a malformed ref or selectedQueues is refused', async () => {
    const { ticket } = await newTicket();
    await t.db.insert(messages).values({ companyId, ticketId: ticket.id, body: 'olá' });
    const byUuid = await t.app.inject({ method: 'GET', url: `/messages/${ticket.uuid}`, headers: auth(admin) });
    expect(byUuid.statusCode).toBe(200);
    expect(byUuid.json<ListMessagesResponse>()).toMatchObject({ ticket: { id: ticket.id }, messages: [{ body: 'olá', ticketId: ticket.id }] });
    const withQueues = await t.app.inject({ method: 'GET', url: `/messages/${ticket.id}?selectedQueues=${encodeURIComponent('[1,2]')}`, headers: auth(admin) });
    expect(withQueues.statusCode).toBe(200);

    const badQueues = await t.app.inject({ method: 'GET', url: `/messages/${ticket.id}?selectedQueues=oops`, headers: auth(admin) });
    expect(badQueues.statusCode).toBe(400);
    for (const ref of ['undefined', 'abc', '99999999999']) {
      const res = await t.app.inject({ method: 'GET', url: `/messages/${ref}`, headers: auth(admin) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    }
  });

  it('shows private notes and quoted messages with their contact', async () => {
    const { ticket, contact } = await newTicket();
    const [asked] = await t.db.insert(messages).values({ companyId, ticketId: ticket.id, contactId: contact.id, body: 'Pergunta?' }).returning();
    await t.db.insert(messages).values([
      { companyId, ticketId: ticket.id, body: 'nota', fromMe: true, isPrivate: true },
      { companyId, ticketId: ticket.id, body: 'Resposta', fromMe: true, quotedMsgId: asked!.id },
    ]);
    const res = await t.app.inject({ method: 'GET', url: `/messages/${ticket.id}`, headers: auth(admin) });
    const list = res.json<ListMessagesResponse>().messages;
    expect(list.map((m) => [m.body, m.isPrivate])).toEqual([
      ['Pergunta?', false],
      ['nota', true],
      ['Resposta', false],
    ]);
    expect(list[0]!.contact).toEqual({ id: contact.id, name: 'Maria Silva' });
    expect(list[2]!.quotedMsg).toMatchObject({ id: asked!.id, body: 'Pergunta?', fromMe: false, contact: { id: contact.id, name: 'Maria Silva' } });
  });

  it('page 1 reads the conversation: unread to 0, messages read, one updateUnread event', async () => {
    const { ticket } = await newTicket({ unreadMessages: 2 });
    await t.db.insert(messages).values([
      { companyId, ticketId: ticket.id, body: 'a' },
      { companyId, ticketId: ticket.id, body: 'b' },
    ]);
    const events = collect<TicketEventPayload>(socket, `company-${companyId}-ticket`);
    const res = await t.app.inject({ method: 'GET', url: `/messages/${ticket.id}`, headers: auth(admin) });
    expect(res.json<ListMessagesResponse>().ticket.unreadMessages).toBe(0);
    expect((await ticketMessages(ticket.id)).every((m) => m.read)).toBe(true);
    await eventually(async () => events.some((e) => e.action === 'updateUnread' && e.ticketId === ticket.id));

    await t.app.inject({ method: 'GET', url: `/messages/${ticket.id}`, headers: auth(admin) });
    await sleep(150);
    expect(events.filter((e) => e.action === 'updateUnread' && e.ticketId === ticket.id)).toHaveLength(1);
  });

  it('403 for a user who may not see the ticket, 404 for another company', async () => {
    const { ticket } = await newTicket({ unreadMessages: 1 });
    const hidden = await t.app.inject({ method: 'GET', url: `/messages/${ticket.id}`, headers: auth(plain) });
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    for (const ref of [ticket.id, ticket.uuid]) {
      const foreign = await t.app.inject({ method: 'GET', url: `/messages/${ref}`, headers: auth(otherAdmin) });
      expect(foreign.statusCode).toBe(404);
    }
    // Neither read the conversation.
    expect((await t.db.select().from(tickets).where(eq(tickets.id, ticket.id)))[0]!.unreadMessages).toBe(1);

    // A user of the ticket's queue sees it while it is unassigned.
    const [queue] = await t.db.insert(queues).values({ companyId, name: 'Vendas', color: '#123456' }).returning();
    const { ticket: queued } = await newTicket({ userId: null, queueId: queue!.id, status: 'pending' });
    expect((await t.app.inject({ method: 'GET', url: `/messages/${queued.id}`, headers: auth(plain) })).statusCode).toBe(403);
    const member = await createPlainUser(t, companyId);
    await t.db.insert(userQueues).values({ userId: member.user.id, queueId: queue!.id, companyId });
    expect((await t.app.inject({ method: 'GET', url: `/messages/${queued.id}`, headers: auth(member) })).statusCode).toBe(200);
  });
  it('masks the ticket contact’s number for non-admins when the company hides numbers (LGPD)', async () => {
    const watcher = await createPlainUser(t, companyId, { allTicket: 'enabled' });
    const { ticket, contact } = await newTicket();
    await t.db.update(contacts).set({ name: contact.number }).where(eq(contacts.id, contact.id));
    await t.db.insert(messages).values({ companyId, ticketId: ticket.id, contactId: contact.id, body: 'oi' });
    await t.db.update(companySettings).set({ lgpdHideNumber: 'enabled' }).where(eq(companySettings.companyId, companyId));
    try {
      const seen = (await t.app.inject({ method: 'GET', url: `/messages/${ticket.id}`, headers: auth(watcher) })).json<ListMessagesResponse>();
      expect(seen.ticket.contact.number).not.toBe(contact.number);
      expect(seen.ticket.contact.number).toContain('*');
      expect(seen.messages[0]!.contact).toEqual({ id: contact.id, name: seen.ticket.contact.number });
      const asAdmin = (await t.app.inject({ method: 'GET', url: `/messages/${ticket.id}`, headers: auth(admin) })).json<ListMessagesResponse>();
      expect(asAdmin.ticket.contact.number).toBe(contact.number);
    } finally {
      await t.db.update(companySettings).set({ lgpdHideNumber: 'disabled' }).where(eq(companySettings.companyId, companyId));
    }
  });
});

describe('lgpdDeleteMessage', () => {
  it('answers what the contact deleted without body or media (HTTP and socket) while enabled; the attendant’s own deletions and everything when disabled keep them', async () => {
    const { ticket, contact } = await newTicket();
    const [connection] = await t.db.select().from(whatsapps).where(eq(whatsapps.id, connId));
    const base = { companyId, ticketId: ticket.id, whatsappId: connId };
    const [said, photo, own] = await t.db
      .insert(messages)
      .values([
        { ...base, contactId: contact.id, body: 'meu cpf é 123', wid: `lgpd_del_text_${ticket.id}` },
        { ...base, contactId: contact.id, body: '', mediaType: 'image', mediaUrl: 'foto.png', wid: `lgpd_del_photo_${ticket.id}` },
        { ...base, fromMe: true, body: 'apagada por mim', isDeleted: true },
      ])
      .returning();
    const [answer] = await t.db.insert(messages).values({ ...base, fromMe: true, body: 'recebido', quotedMsgId: said!.id }).returning();
    const list = async () => {
      const res = await t.app.inject({ method: 'GET', url: `/messages/${ticket.id}`, headers: auth(admin) });
      expect(res.statusCode).toBe(200);
      const byId = new Map(res.json<ListMessagesResponse>().messages.map((m) => [m.id, m]));
      return { said: byId.get(said!.id)!, photo: byId.get(photo!.id)!, own: byId.get(own!.id)!, answer: byId.get(answer!.id)! };
    };
    const contactDeletes = async (wid: string) => {
      const updated = nextEvent<AppMessageEventPayload>(socket, `company-${companyId}-appMessage`);
      expect((await processInbound(t.app.ctx, connection!, { kind: 'delete', wid })).outcome).toBe('updated');
      return (await updated).message;
    };

    await t.db.update(companySettings).set({ lgpdDeleteMessage: 'enabled' }).where(eq(companySettings.companyId, companyId));
    try {
      expect(await contactDeletes(said!.wid!)).toMatchObject({ id: said!.id, isDeleted: true, body: '' });
      expect(await contactDeletes(photo!.wid!)).toMatchObject({ id: photo!.id, isDeleted: true, mediaType: 'image', mediaUrl: null });
      const hidden = await list();
      expect(hidden.said).toMatchObject({ isDeleted: true, body: '' });
      expect(hidden.photo).toMatchObject({ isDeleted: true, mediaUrl: null });
      expect(hidden.answer.quotedMsg).toMatchObject({ id: said!.id, body: '' });
      expect(hidden.own).toMatchObject({ isDeleted: true, body: 'apagada por mim' });
    } finally {
      await t.db.update(companySettings).set({ lgpdDeleteMessage: 'disabled' }).where(eq(companySettings.companyId, companyId));
    }
    const shown = await list();
    expect(shown.said).toMatchObject({ isDeleted: true, body: 'meu cpf é 123' });
    expect(shown.photo.mediaUrl).toContain('foto.png');
    expect(shown.answer.quotedMsg).toMatchObject({ body: 'meu cpf é 123' });
  });
});

describe('lgpdDeleteMessage and the ticket preview', () => {
  it('blanks the preview when the contact deletes the last message while enabled, and leaves it otherwise', async () => {
    const [connection] = await t.db.select().from(whatsapps).where(eq(whatsapps.id, connId));
    const says = async (body: string) => {
      const { ticket, contact } = await newTicket();
      const [row] = await t.db.insert(messages).values({ companyId, ticketId: ticket.id, whatsappId: connId, contactId: contact.id, body, wid: `lgpd_preview_${ticket.id}_${body.length}` }).returning();
      await t.db.update(tickets).set({ lastMessage: body }).where(eq(tickets.id, ticket.id));
      return { ticket, contact, row: row! };
    };
    const contactDeletes = async (wid: string) => {
      const updated = nextEvent<AppMessageEventPayload>(socket, `company-${companyId}-appMessage`);
      expect((await processInbound(t.app.ctx, connection!, { kind: 'delete', wid })).outcome).toBe('updated');
      await updated;
    };
    const preview = async (ticketId: number) => (await t.db.select({ lastMessage: tickets.lastMessage }).from(tickets).where(eq(tickets.id, ticketId)))[0]!.lastMessage;

    const kept = await says('meu endereço é rua A');
    await contactDeletes(kept.row.wid!);
    expect(await preview(kept.ticket.id)).toBe('meu endereço é rua A');

    await t.db.update(companySettings).set({ lgpdDeleteMessage: 'enabled' }).where(eq(companySettings.companyId, companyId));
    try {
      const last = await says('meu cpf é 123');
      // The list hears the blanked preview.
      const listed = nextEvent<TicketEventPayload>(socket, `company-${companyId}-ticket`);
      await contactDeletes(last.row.wid!);
      expect(await listed).toMatchObject({ action: 'update', ticket: { id: last.ticket.id, lastMessage: '' } });
      expect(await preview(last.ticket.id)).toBe('');

      // An older message deleted: the preview shows the newer one and stays.
      const older = await says('meu rg é 456');
      await t.db.insert(messages).values({ companyId, ticketId: older.ticket.id, whatsappId: connId, contactId: older.contact.id, body: 'obrigado' });
      await t.db.update(tickets).set({ lastMessage: 'obrigado' }).where(eq(tickets.id, older.ticket.id));
      await contactDeletes(older.row.wid!);
      expect(await preview(older.ticket.id)).toBe('obrigado');
    } finally {
      await t.db.update(companySettings).set({ lgpdDeleteMessage: 'disabled' }).where(eq(companySettings.companyId, companyId));
    }
  });
});

describe('POST /messages/{ticketId}', () => {
  it('stores a text in the outbox, sends it to the channel and announces it', async () => {
    const { ticket, contact } = await newTicket();
    const created = nextEvent<AppMessageEventPayload>(socket, `company-${companyId}-appMessage`);
    const res = await post(admin, ticket.id, { read: 1, fromMe: true, mediaUrl: '', body: 'Bom dia!', quotedMsg: null, isPrivate: 'false' });
    expect(res.statusCode).toBe(200);
    expect(res.json<Message>()).toMatchObject({ body: 'Bom dia!', fromMe: true, ack: 0, mediaType: 'chat', ticketId: ticket.id });
    const event = await created;
    expect(event).toMatchObject({ action: 'create', message: { body: 'Bom dia!' }, ticket: { id: ticket.id } });

    const [row] = await ticketMessages(ticket.id);
    expect(row).toMatchObject({ fromMe: true, isPrivate: false });
    await eventually(async () => sendsTo(contact.number).length === 1);
    expect(sendsTo(contact.number)[0]!.body).toMatchObject({ message: { text: 'Bom dia!' } });
    await eventually(async () => (await ticketMessages(ticket.id))[0]!.sendStatus === 'sent');
    expect((await t.db.select().from(tickets).where(eq(tickets.id, ticket.id)))[0]).toMatchObject({ lastMessage: 'Bom dia!', lastMessageFromMe: true });
  });

  it('keeps a private note away from the channel', async () => {
    const { ticket, contact } = await newTicket();
    for (const isPrivate of ['true', true]) {
      const res = await post(admin, ticket.id, { body: 'Cliente pediu desconto', isPrivate });
      expect(res.statusCode).toBe(200);
      expect(res.json<Message>()).toMatchObject({ isPrivate: true, sendStatus: null });
    }
    await sleep(300);
    expect(sendsTo(contact.number)).toEqual([]);
    expect((await ticketMessages(ticket.id)).map((m) => [m.isPrivate, m.sendStatus])).toEqual([
      [true, null],
      [true, null],
    ]);
    // The list row keeps previewing the conversation with the customer, not the note.
    const [row] = await t.db.select({ lastMessage: tickets.lastMessage }).from(tickets).where(eq(tickets.id, ticket.id));
    expect(row?.lastMessage).not.toBe('Cliente pediu desconto');
  });

  it('refuses a blank message and tickets that are not open', async () => {
    const { ticket } = await newTicket();
    for (const body of ['', '   \n ', null]) {
      const res = await post(admin, ticket.id, { body, isPrivate: 'false' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'ERR_EMPTY_MESSAGE' });
    }
    for (const status of ['closed', 'pending'] as const) {
      const { ticket: shut } = await newTicket({ status });
      const res = await post(admin, shut.id, { body: 'Olá', isPrivate: 'true' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'ERR_TICKET_NOT_OPEN' });
      expect(await ticketMessages(shut.id)).toEqual([]);
    }
    expect(await ticketMessages(ticket.id)).toEqual([]);
  });

  it('stores a reply with its quoted message (of the same ticket only)', async () => {
    const { ticket, contact } = await newTicket();
    const [asked] = await t.db.insert(messages).values({ companyId, ticketId: ticket.id, contactId: contact.id, body: 'Qual o prazo?', wid: 'm_customer_1' }).returning();
    const res = await post(admin, ticket.id, { body: '3 dias', quotedMsg: { id: asked!.id, body: 'Qual o prazo?', fromMe: false } });
    expect(res.statusCode).toBe(200);
    expect(res.json<Message>()).toMatchObject({ quotedMsgId: asked!.id, quotedMsg: { id: asked!.id, body: 'Qual o prazo?' } });
    await eventually(async () => sendsTo(contact.number).length === 1);
    expect(sendsTo(contact.number)[0]!.body).toMatchObject({ message: { text: '3 dias', reply_to: { mid: 'm_customer_1' } } });

    const { ticket: elsewhere } = await newTicket();
    const [foreign] = await t.db.insert(messages).values({ companyId, ticketId: elsewhere.id, body: 'outro' }).returning();
    const refused = await post(admin, ticket.id, { body: 'x', quotedMsg: { id: foreign!.id } });
    expect(refused.statusCode).toBe(400);
    expect(await ticketMessages(ticket.id)).toHaveLength(2);
  });

  it('fills the message variables', async () => {
    const [queue] = await t.db.insert(queues).values({ companyId, name: 'Suporte', color: '#654321' }).returning();
    const { ticket } = await newTicket({ queueId: queue!.id });
    const res = await post(admin, ticket.id, { body: '{{ms}}, {{firstName}}! Sou {{userName}} ({{queue}}, {{connection}}) #{{ticket_id}} {{nada}}' });
    const body = res.json<Message>().body;
    expect(body).toMatch(/^(Bom dia|Boa tarde|Boa noite), Maria! Sou /);
    expect(body).toContain(`Sou ${admin.user.name} (Suporte, Conn `);
    expect(body).toContain(`#${ticket.id} {{nada}}`);
  });

  it('sends a contact card (vCard) as a contactMessage; Messenger gets name and number as text', async () => {
    const { ticket, contact } = await newTicket();
    const res = await post(admin, ticket.id, { read: 1, fromMe: true, body: null, quotedMsg: null, isPrivate: 'false', vCard: { id: 9, name: 'João Souza', number: '5511999990000' } });
    expect(res.statusCode).toBe(200);
    const message = res.json<Message>();
    expect(message.mediaType).toBe('contactMessage');
    expect(message.body).toContain('FN:João Souza');
    expect(message.body).toContain('waid=5511999990000');
    await eventually(async () => sendsTo(contact.number).length === 1);
    expect(sendsTo(contact.number)[0]!.body).toMatchObject({ message: { text: 'João Souza\n5511999990000' } });
  });

  it('sends files as one message each, with their own caption and a full media URL', async () => {
    const { ticket, contact } = await newTicket();
    const form = multipart({ fromMe: 'true', isPrivate: 'false', body: 'Segue a foto' }, { field: 'medias', name: 'foto.png', type: 'image/png', data: PNG });
    const res = await postForm(admin, ticket.id, form);
    expect(res.statusCode).toBe(200);
    const message = res.json<Message>();
    expect(message).toMatchObject({ mediaType: 'image', body: 'Segue a foto' });
    expect(message.mediaUrl).toMatch(new RegExp(`/public/company${companyId}/[0-9a-f]{32}\\.png$`));
    const served = await t.app.inject({ method: 'GET', url: new URL(message.mediaUrl!).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    await eventually(async () => sendsTo(contact.number).length === 2);
    expect(sendsTo(contact.number).map((s) => s.body)).toEqual([
      expect.objectContaining({ message: { attachment: { type: 'image', payload: { url: message.mediaUrl, is_reusable: true } } } }),
      expect.objectContaining({ message: { text: 'Segue a foto' } }),
    ]);

    const audio = multipart({ isPrivate: 'false', body: '' }, { field: 'medias', name: 'audio.webm', type: 'audio/webm;codecs=opus', data: Buffer.from('webm-audio') });
    expect((await postForm(admin, ticket.id, audio)).json<Message>().mediaType).toBe('audio');
    const pdf = multipart({ isPrivate: 'true', body: 'contrato' }, { field: 'medias', name: 'Contrato de serviço (v2).pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4') });
    const document = (await postForm(admin, ticket.id, pdf)).json<Message>();
    expect(document).toMatchObject({ mediaType: 'application', isPrivate: true });
    // A document keeps a readable form of its name after the random part.
    expect(decodeURIComponent(document.mediaUrl!)).toMatch(/\/[0-9a-f]{32}-Contrato_de_serviço_v2\.pdf$/);
    expect((await ticketMessages(ticket.id)).map((m) => m.mediaType)).toEqual(['image', 'audio', 'application']);
  });

  it('refuses executables, active content and files over UPLOAD_LIMIT_MB, storing nothing', async () => {
    const { ticket } = await newTicket();
    const bad = [
      { name: 'setup.exe', type: 'application/x-msdownload', data: Buffer.from('MZ\x90\x00') },
      { name: 'fatura.pdf', type: 'application/pdf', data: Buffer.from('MZ\x90\x00 disguised') },
      { name: 'run.sh', type: 'text/plain', data: Buffer.from('echo hi') },
      { name: 'logo.svg', type: 'image/svg+xml', data: Buffer.from('<svg onload="alert(1)"/>') },
    ];
    for (const file of bad) {
      const res = await postForm(admin, ticket.id, multipart({ body: 'x' }, { field: 'medias', ...file }));
      expect(res.statusCode, file.name).toBe(400);
      expect(res.json()).toEqual({ error: 'ERR_INVALID_MEDIA_TYPE', message: file.name });
    }
    const big = await postForm(admin, ticket.id, multipart({ body: 'x' }, { field: 'medias', name: 'big.png', type: 'image/png', data: Buffer.alloc(1024 * 1024 + 10, 1) }));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'ERR_FILE_TOO_LARGE' });
    const none = await postForm(admin, ticket.id, multipart({ body: 'sem arquivo' }));
    expect(none.statusCode).toBe(400);
    expect(await ticketMessages(ticket.id)).toEqual([]);
  });

  it('403 for a user who may not see the ticket, 404 for another company; nothing stored', async () => {
    const { ticket } = await newTicket();
    const hidden = await post(plain, ticket.id, { body: 'oi' });
    expect(hidden.statusCode).toBe(403);
    const foreign = await post(otherAdmin, ticket.id, { body: 'oi' });
    expect(foreign.statusCode).toBe(404);
    const foreignFile = await postForm(otherAdmin, ticket.id, multipart({ body: 'x' }, { field: 'medias', name: 'foto.png', type: 'image/png', data: PNG }));
    expect(foreignFile.statusCode).toBe(404);
    const [n] = await t.db.select({ n: count() }).from(messages).where(eq(messages.ticketId, ticket.id));
    expect(n!.n).toBe(0);
  });
});
