import type { AppMessageEventPayload, ContactEventPayload, ExternalSendResponse, ListMessagesResponse, Ticket, TicketEventPayload } from '@balcao/contracts';
import type { PoolClient } from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { contactCustomFields, contactTags, messages, queues, tags, tickets, ticketTags, whatsapps } from '../../db/schema/index.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, nextEvent, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection } from '../../../test/connections.js';
import { createContact, setCompanySettings } from '../../../test/tickets.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { createPlainUser, listen, openSocket } from '../../../test/roles.js';

/**
 * The API's message and ticket events are presented from the rows it wrote (no re-read):
 * what the sockets hear must still be what GET /messages and GET /tickets/u/{uuid} answer.
 */

let t: TestApp;
let graph: FakeGraph;
let admin: LoggedIn;
let companyId: number;
let conn: typeof whatsapps.$inferSelect;
let socket: Socket;
let port: number;
let queueId: number;

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
  const own = await createCompanyWithAdmin(t.db);
  companyId = own.company.id;
  admin = await login(t.app, own.email, own.password);
  const [queue] = await t.db.insert(queues).values({ companyId, name: 'Suporte', color: '#336699' }).returning();
  queueId = queue!.id;
  conn = await createConnection(t.db, companyId, { complationMessage: 'Tchau!' }, [queueId]);
  port = await listen(t);
  socket = await openSocket(port, admin);
});

afterAll(async () => {
  socket?.disconnect();
  await t.close();
  await graph.close();
});

const send = async (payload: object) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/messages/send', headers: bearer(conn.token!), payload });
  expect(res.statusCode).toBe(200);
  return res.json<ExternalSendResponse>();
};

/** The `create` of the next message with this body and the last ticket update before it. */
function heard(body: string): Promise<{ message: AppMessageEventPayload; ticket: Ticket }> {
  return new Promise((resolve, reject) => {
    let ticket: Ticket | undefined;
    const timer = setTimeout(() => reject(new Error(`no create for ${body}`)), 5000);
    const onTicket = (p: TicketEventPayload) => {
      if (p.action === 'update' && 'ticket' in p && p.ticket) ticket = p.ticket;
    };
    const onMessage = (p: AppMessageEventPayload) => {
      if (p.action !== 'create' || p.message.body !== body) return;
      clearTimeout(timer);
      socket.off(`company-${companyId}-ticket`, onTicket);
      socket.off(`company-${companyId}-appMessage`, onMessage);
      resolve({ message: p, ticket: ticket! });
    };
    socket.on(`company-${companyId}-ticket`, onTicket);
    socket.on(`company-${companyId}-appMessage`, onMessage);
  });
}

describe('the API message as the sockets hear it', () => {
  it('is what GET /messages and GET /tickets/u/{uuid} answer, includes and all', async () => {
    // Another contact first: the contact's id is not the ticket's (a mixed-up include would show).
    await createContact(t.db, companyId);
    const first = await send({ number: '7710001', body: 'Olá', userId: admin.user.id });
    const [vip, urgent] = await t.db
      .insert(tags)
      .values([
        { companyId, name: 'VIP', color: '#aa0000' },
        { companyId, name: 'Urgente', color: '#00aa00' },
      ])
      .returning();
    const ticket = (await t.app.inject({ method: 'GET', url: `/tickets/${first.ticketId}`, headers: bearer(admin.token) })).json<Ticket>();
    await t.db.insert(ticketTags).values({ ticketId: ticket.id, tagId: urgent!.id });
    await t.db.insert(contactTags).values({ contactId: ticket.contactId, tagId: vip!.id });
    await t.db.insert(contactCustomFields).values({ companyId, contactId: ticket.contactId, name: 'CPF', value: '123' });

    const events = heard('Seu pedido saiu');
    const second = await send({ number: '7710001', body: 'Seu pedido saiu' });
    const { message, ticket: emitted } = await events;
    expect(message.message.id).toBe(second.messageId);

    const listed = (await t.app.inject({ method: 'GET', url: `/messages/${ticket.id}`, headers: bearer(admin.token) })).json<ListMessagesResponse>();
    const stored = listed.messages.find((m) => m.id === second.messageId)!;
    // The send after the answer has since set the channel's id (wid), the ack and the outbox state.
    expect(message.message.sendStatus).toBe('pending');
    const sent = { wid: stored.wid, ack: stored.ack, sendStatus: stored.sendStatus, updatedAt: stored.updatedAt };
    expect({ ...message.message, ...sent }).toEqual(stored);
    const current = (await t.app.inject({ method: 'GET', url: `/tickets/u/${ticket.uuid}`, headers: bearer(admin.token) })).json<Ticket>();
    expect({ ...emitted, updatedAt: current.updatedAt }).toEqual(current);
    expect(emitted).toMatchObject({
      lastMessage: 'Seu pedido saiu',
      user: { id: admin.user.id },
      tags: [{ id: urgent!.id, name: 'Urgente' }],
      whatsapp: { id: conn.id, name: conn.name, hasFarewell: true },
      contact: { tags: [{ id: vip!.id, name: 'VIP' }], extraInfo: [{ name: 'CPF', value: '123' }] },
    });
  });
});

describe("an API's first send to a new number (contact, ticket and message in one statement)", () => {
  it('is heard as GET /messages and GET /tickets/u/{uuid} answer, the ticket already showing the message, and sent once', async () => {
    const number = '7710002';
    const events = heard('Primeiro contato');
    const answer = await send({ number, body: 'Primeiro contato', queueId });
    const { message, ticket: emitted } = await events;
    expect(message.message.id).toBe(answer.messageId);
    expect(message.message.sendStatus).toBe('pending');
    expect(emitted).toMatchObject({ id: answer.ticketId, lastMessage: 'Primeiro contato', status: 'pending', contact: { number } });

    const listed = (await t.app.inject({ method: 'GET', url: `/messages/${answer.ticketId}`, headers: bearer(admin.token) })).json<ListMessagesResponse>();
    expect(listed.messages.map((m) => m.id)).toEqual([answer.messageId]);
    const stored = listed.messages[0]!;
    const sent = { wid: stored.wid, ack: stored.ack, sendStatus: stored.sendStatus, updatedAt: stored.updatedAt };
    expect({ ...message.message, ...sent }).toEqual(stored);
    const current = (await t.app.inject({ method: 'GET', url: `/tickets/u/${emitted.uuid}`, headers: bearer(admin.token) })).json<Ticket>();
    expect({ ...emitted, updatedAt: current.updatedAt }).toEqual(current);
    // The ticket's clock is its message's (in milliseconds), as the touch after an insert sets it.
    const [row] = await t.db.select({ at: tickets.lastMessageAt, fromMe: tickets.lastMessageFromMe }).from(tickets).where(eq(tickets.id, answer.ticketId));
    const [written] = await t.db.select({ at: messages.createdAt }).from(messages).where(eq(messages.id, answer.messageId));
    expect(row).toEqual({ at: written!.at, fromMe: true });

    await expect.poll(() => graph.sends().filter((s) => (s.body as { recipient: { id: string } }).recipient.id === number).length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(graph.sends().filter((s) => (s.body as { recipient: { id: string } }).recipient.id === number)).toHaveLength(1);
  });
});

describe("the new contact of an API's first send", () => {
  it('reaches users with the number masked when the company hides numbers (the flag read with the new ticket), admins unmasked', async () => {
    const user = await openSocket(port, await createPlainUser(t, companyId));
    try {
      for (const [hides, number] of [[true, '5511987650001'], [false, '5511987650002']] as const) {
        await setCompanySettings(t.db, companyId, { lgpdHideNumber: hides ? 'enabled' : 'disabled' });
        const toAdmin = nextEvent<ContactEventPayload>(socket, `company-${companyId}-contact`);
        const toUser = nextEvent<ContactEventPayload>(user, `company-${companyId}-contact`);
        await send({ number, body: 'Primeira mensagem' });
        expect(await toAdmin).toMatchObject({ action: 'create', contact: { number, name: number } });
        const shown = hides ? number.slice(0, 4) + '*****' + number.slice(-4) : number;
        expect(await toUser).toMatchObject({ action: 'create', contact: { number: shown, name: shown } });
      }
    } finally {
      user.disconnect();
    }
  });
});

describe("the first send's asynchronous commit", () => {
  it("is its statement's own: every pooled connection commits synchronously again after it", async () => {
    const everyConnection = async <T>(run: (client: PoolClient) => Promise<T>) => {
      const clients = await Promise.all(Array.from({ length: t.pool.options.max ?? 10 }, () => t.pool.connect()));
      try {
        return await Promise.all(clients.map(run));
      } finally {
        for (const client of clients) client.release();
      }
    };
    // The test cluster runs with synchronous_commit off: each connection's session is set on, which the send must leave.
    await everyConnection((client) => client.query('set synchronous_commit = on'));
    await send({ number: '5511987650003', body: 'Oi' });
    const settings = await everyConnection(async (client) => (await client.query<{ synchronous_commit: string }>('show synchronous_commit')).rows[0]!.synchronous_commit);
    expect(settings).toEqual(settings.map(() => 'on'));
  });
});
