import type { AppMessageEventPayload, ListMessagesResponse, Ticket, TicketEventPayload } from '@balcao/contracts';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactCustomFields, contactTags, queues, tags, ticketTags, whatsapps } from '../../db/schema/index.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection } from '../../../test/connections.js';
import { listen, openSocket } from '../../../test/roles.js';
import type { InboundMessage } from '../../channels/inbound-event.js';
import { processInbound } from './inbound.js';

/**
 * Issue 10 point 6: the stored inbound message and its ticket are presented from the rows
 * the transaction wrote, not read back. What the sockets hear must still be exactly what
 * the HTTP answers give for the same message and ticket: every include (contact extra info
 * and tags, ticket tags, queue, owner, connection) and every field.
 */

let t: TestApp;
let admin: LoggedIn;
let companyId: number;
let conn: typeof whatsapps.$inferSelect;
let socket: Socket;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
  const own = await createCompanyWithAdmin(t.db);
  companyId = own.company.id;
  admin = await login(t.app, own.email, own.password);
  const [queue] = await t.db.insert(queues).values({ companyId, name: 'Suporte', color: '#336699' }).returning();
  conn = await createConnection(t.db, companyId, { complationMessage: 'Tchau!' }, [queue!.id]);
  socket = await openSocket(await listen(t), admin);
});

afterAll(async () => {
  socket?.disconnect();
  await t.close();
});

const say = (wid: string, body: string): InboundMessage => ({
  kind: 'message',
  wid,
  fromMe: false,
  body,
  mediaType: 'chat',
  at: new Date(),
  chat: { number: '7700001', name: 'Joana Prado', remoteJid: '7700001', isGroup: false },
  raw: {},
});

/** The socket events of one inbound message: its `create` and the last update of its ticket before it. */
function heard(wid: string): Promise<{ message: AppMessageEventPayload; ticket: Ticket }> {
  return new Promise((resolve, reject) => {
    let ticket: Ticket | undefined;
    const timer = setTimeout(() => reject(new Error(`no create for ${wid}`)), 5000);
    const onTicket = (p: TicketEventPayload) => {
      if (p.action === 'update' && 'ticket' in p && p.ticket) ticket = p.ticket;
    };
    const onMessage = (p: AppMessageEventPayload) => {
      if (p.action !== 'create' || p.message.wid !== wid) return;
      clearTimeout(timer);
      socket.off(`company-${companyId}-ticket`, onTicket);
      socket.off(`company-${companyId}-appMessage`, onMessage);
      resolve({ message: p, ticket: ticket! });
    };
    socket.on(`company-${companyId}-ticket`, onTicket);
    socket.on(`company-${companyId}-appMessage`, onMessage);
  });
}

describe('the inbound message as the sockets hear it', () => {
  it('is what GET /messages and GET /tickets/u/{uuid} answer, includes and all', async () => {
    // A first message makes the contact and the ticket; then the ticket gets an owner, tags,
    // and the contact extra info and a tag, so the second message's event carries every include.
    const first = await processInbound(t.app.ctx, conn, say('m_present_1', 'Bom dia'));
    if (first.outcome !== 'stored') throw new Error(first.outcome);
    const accepted = await t.app.inject({ method: 'PUT', url: `/tickets/${first.ticketId}`, headers: bearer(admin.token), payload: { status: 'open' } });
    expect(accepted.statusCode).toBe(200);
    const ticket = accepted.json<Ticket>();
    const [vip, urgent] = await t.db
      .insert(tags)
      .values([
        { companyId, name: 'VIP', color: '#aa0000' },
        { companyId, name: 'Urgente', color: '#00aa00' },
      ])
      .returning();
    await t.db.insert(ticketTags).values({ ticketId: ticket.id, tagId: urgent!.id });
    await t.db.insert(contactTags).values({ contactId: ticket.contactId, tagId: vip!.id });
    await t.db.insert(contactCustomFields).values({ companyId, contactId: ticket.contactId, name: 'CPF', value: '123' });

    const events = heard('m_present_2');
    const second = await processInbound(t.app.ctx, conn, say('m_present_2', 'Ainda aí?'));
    if (second.outcome !== 'stored') throw new Error(second.outcome);
    const { message, ticket: emitted } = await events;

    const viaHttp = await t.app.inject({ method: 'GET', url: `/messages/${ticket.id}`, headers: bearer(admin.token) });
    const stored = viaHttp.json<ListMessagesResponse>().messages.find((m) => m.wid === 'm_present_2')!;
    // Opening the conversation read it (read, updatedAt): the rest is as it was emitted.
    expect(message.message.read).toBe(false);
    expect({ ...message.message, read: true, updatedAt: stored.updatedAt }).toEqual(stored);
    expect(message.message.contact).toEqual({ id: ticket.contactId, name: 'Joana Prado' });
    expect(message.message.ticket).toEqual({ id: ticket.id, uuid: ticket.uuid, queue: { name: 'Suporte' } });

    const current = (await t.app.inject({ method: 'GET', url: `/tickets/u/${ticket.uuid}`, headers: bearer(admin.token) })).json<Ticket>();
    // The same ticket, but for what opening it changed since (unread count, updatedAt).
    expect({ ...emitted, unreadMessages: 0, updatedAt: current.updatedAt }).toEqual(current);
    expect(emitted).toMatchObject({
      lastMessage: 'Ainda aí?',
      unreadMessages: 2,
      user: { id: admin.user.id },
      queue: { name: 'Suporte', color: '#336699' },
      tags: [{ id: urgent!.id, name: 'Urgente' }],
      whatsapp: { id: conn.id, name: conn.name, hasFarewell: true },
      contact: { tags: [{ id: vip!.id, name: 'VIP' }], extraInfo: [{ name: 'CPF', value: '123' }] },
    });
  });
});
