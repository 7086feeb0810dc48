import type { Ticket } from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactTags, messages, tags } from '../../db/schema/index.js';
import { bearer, collect, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createPlainUser, listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { createTestApp } from '../../../test/helpers.js';
import { createContact, createQueue, createTicketRow, joinQueues, logsOf, setCompanySettings, ticketRow } from '../../../test/tickets.js';

let t: TestApp;
let graph: FakeGraph;
let roles: Roles;
let companyId: number;
/** The plain user's queue, and a queue the plain user is not in. */
let ownQueue: number;
let otherQueue: number;
let connId: number;
/** A second plain user in ownQueue. */
let colleague: LoggedIn;

const put = (s: LoggedIn, id: number, payload: object) => t.app.inject({ method: 'PUT', url: `/tickets/${id}`, headers: bearer(s.token), payload });

async function newTicket(fields: Partial<Parameters<typeof createTicketRow>[1]> = {}, contactOver: Parameters<typeof createContact>[2] = {}) {
  const contact = await createContact(t.db, companyId, contactOver);
  return createTicketRow(t.db, { companyId, contactId: contact.id, whatsappId: connId, queueId: ownQueue, ...fields });
}

const outgoingOf = (ticketId: number) => t.db.select().from(messages).where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, true))).orderBy(messages.id);

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
  roles = await setupRoles(t);
  companyId = roles.companyId;
  ownQueue = (await createQueue(t.db, companyId, 'Vendas')).id;
  otherQueue = (await createQueue(t.db, companyId, 'Suporte')).id;
  await joinQueues(t.db, companyId, roles.user.user.id, [ownQueue]);
  colleague = await createPlainUser(t, companyId);
  await joinQueues(t.db, companyId, colleague.user.id, [ownQueue]);
  connId = (await createConnection(t.db, companyId, { complationMessage: 'Até logo, {{firstName}}!' }, [ownQueue, otherQueue])).id;
});

afterAll(async () => {
  await t.close();
  await graph.close();
});

describe('accept', () => {
  it('lets a user of the queue take a pending ticket: open, owned by them, logged', async () => {
    const ticket = await newTicket();
    const res = await put(roles.user, ticket.id, { status: 'open', userId: roles.user.user.id, queueId: ownQueue });
    expect(res.statusCode).toBe(200);
    expect(res.json<Ticket>()).toMatchObject({ id: ticket.id, status: 'open', userId: roles.user.user.id, queueId: ownQueue, user: { name: roles.user.user.name } });
    expect(await logsOf(t.db, ticket.id)).toMatchObject([{ type: 'open', userId: roles.user.user.id, queueId: ownQueue }]);
  });

  it('refuses a user outside the ticket’s queue (403) and changes nothing', async () => {
    const ticket = await newTicket({ queueId: otherQueue });
    const res = await put(roles.user, ticket.id, { status: 'open', userId: roles.user.user.id });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await ticketRow(t.db, ticket.id)).toMatchObject({ status: 'pending', userId: null });
    expect(await logsOf(t.db, ticket.id)).toEqual([]);
  });

  it('needs a queue: none on the ticket and none given → 400 ERR_QUEUE_REQUIRED', async () => {
    const ticket = await newTicket({ queueId: null });
    const res = await put(roles.admin, ticket.id, { status: 'open' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_QUEUE_REQUIRED' });
    expect((await ticketRow(t.db, ticket.id))!.status).toBe('pending');

    const chosen = await put(roles.admin, ticket.id, { status: 'open', queueId: otherQueue });
    expect(chosen.json<Ticket>()).toMatchObject({ status: 'open', queueId: otherQueue, userId: roles.admin.user.id });
  });

  it('lets a plain user choose only one of their own queues', async () => {
    const allTicket = await createPlainUser(t, companyId, { allTicket: 'enabled' });
    await joinQueues(t.db, companyId, allTicket.user.id, [ownQueue]);
    const ticket = await newTicket({ queueId: null });
    expect((await put(allTicket, ticket.id, { status: 'open', queueId: otherQueue })).statusCode).toBe(403);
    const res = await put(allTicket, ticket.id, { status: 'open', queueId: ownQueue });
    expect(res.json<Ticket>()).toMatchObject({ status: 'open', queueId: ownQueue, userId: allTicket.user.id });
  });

  it('logs the queue a ticket without one is taken into (queue, then open)', async () => {
    const ticket = await newTicket({ queueId: null });
    expect((await put(roles.admin, ticket.id, { status: 'open', queueId: ownQueue })).statusCode).toBe(200);
    expect(await logsOf(t.db, ticket.id)).toMatchObject([
      { type: 'queue', userId: roles.admin.user.id, queueId: ownQueue },
      { type: 'open', userId: roles.admin.user.id, queueId: ownQueue },
    ]);
  });

  it('two attendants accepting at once: exactly one wins, the other gets 409 and nothing changes for them', async () => {
    for (let round = 0; round < 3; round++) {
      const ticket = await newTicket();
      const [a, b] = await Promise.all([put(roles.user, ticket.id, { status: 'open' }), put(colleague, ticket.id, { status: 'open' })]);
      const codes = [a.statusCode, b.statusCode].sort();
      expect(codes).toEqual([200, 409]);
      const loser = a.statusCode === 409 ? a : b;
      const winner = a.statusCode === 200 ? roles.user : colleague;
      expect(loser.json()).toEqual({ error: 'ERR_TICKET_ALREADY_ACCEPTED' });
      expect(await ticketRow(t.db, ticket.id)).toMatchObject({ status: 'open', userId: winner.user.id });
      expect(await logsOf(t.db, ticket.id)).toMatchObject([{ type: 'open', userId: winner.user.id }]);
    }
  });

  it('accepting a ticket a colleague took a moment ago: 409 ERR_TICKET_ALREADY_ACCEPTED (not 403)', async () => {
    const ticket = await newTicket();
    expect((await put(colleague, ticket.id, { status: 'open' })).statusCode).toBe(200);
    const late = await put(roles.user, ticket.id, { status: 'open', userId: roles.user.user.id });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: 'ERR_TICKET_ALREADY_ACCEPTED' });
    expect((await ticketRow(t.db, ticket.id))!.userId).toBe(colleague.user.id);
  });

  it('an open ticket held by someone else: 409 ERR_TICKET_ALREADY_ACCEPTED', async () => {
    const ticket = await newTicket({ status: 'open', userId: colleague.user.id });
    const res = await put(roles.admin, ticket.id, { status: 'open', userId: roles.admin.user.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_TICKET_ALREADY_ACCEPTED' });
    expect((await ticketRow(t.db, ticket.id))!.userId).toBe(colleague.user.id);
  });

  it('posts the greeting-after-accept through the outbox, variables filled, when enabled', async () => {
    await setCompanySettings(t.db, companyId, { sendGreetingAccepted: 'enabled', greetingAcceptedMessage: 'Olá {{firstName}}, sou {{userName}} da fila {{queue}}.' });
    try {
      const ticket = await newTicket({}, { name: 'Joana Prado' });
      const sendsBefore = graph.sends().length;
      expect((await put(roles.user, ticket.id, { status: 'open' })).statusCode).toBe(200);
      const [greeting] = await outgoingOf(ticket.id);
      const queueName = (await t.app.inject({ method: 'GET', url: `/queue/${ownQueue}`, headers: bearer(roles.admin.token) })).json<{ name: string }>().name;
      expect(greeting).toMatchObject({ fromMe: true, isPrivate: false, body: `Olá Joana, sou ${roles.user.user.name} da fila ${queueName}.` });
      const sent = await eventually(async () => graph.sends().slice(sendsBefore).find((s) => JSON.stringify(s.body).includes('Olá Joana')));
      expect(sent.body).toMatchObject({ message: { text: greeting!.body } });
      await eventually(async () => (await outgoingOf(ticket.id))[0]?.sendStatus === 'sent');
    } finally {
      await setCompanySettings(t.db, companyId, { sendGreetingAccepted: 'disabled', greetingAcceptedMessage: '' });
    }
  });

  it('sends no greeting when the setting is off', async () => {
    const ticket = await newTicket();
    expect((await put(roles.user, ticket.id, { status: 'open' })).statusCode).toBe(200);
    await sleep(50);
    expect(await outgoingOf(ticket.id)).toEqual([]);
  });

  it('a WhatsApp group becomes group (not open), and gets no greeting unless its connection treats groups as tickets', async () => {
    await setCompanySettings(t.db, companyId, { sendGreetingAccepted: 'enabled', greetingAcceptedMessage: 'Olá grupo' });
    try {
      const wa = await createConnection(t.db, companyId, { channel: 'whatsapp', groupAsTicket: 'disabled' });
      const group = await createContact(t.db, companyId, { channel: 'whatsapp', isGroup: true });
      const ticket = await createTicketRow(t.db, { companyId, contactId: group.id, whatsappId: wa.id, channel: 'whatsapp', isGroup: true, queueId: ownQueue });
      const res = await put(roles.admin, ticket.id, { status: 'open' });
      expect(res.json<Ticket>()).toMatchObject({ status: 'group', userId: roles.admin.user.id });
      expect(await outgoingOf(ticket.id)).toEqual([]);
    } finally {
      await setCompanySettings(t.db, companyId, { sendGreetingAccepted: 'disabled', greetingAcceptedMessage: '' });
    }
  });
});

describe('resolve', () => {
  it('the owner closes with the farewell (their own farewellMessage over the connection’s); logged', async () => {
    const ticket = await newTicket({ status: 'open', userId: roles.user.user.id }, { name: 'Rita Lopes' });
    const res = await put(roles.user, ticket.id, { status: 'closed', userId: roles.user.user.id, sendFarewellMessage: true });
    expect(res.statusCode).toBe(200);
    expect(res.json<Ticket>()).toMatchObject({ status: 'closed' });
    expect((await outgoingOf(ticket.id)).map((m) => m.body)).toEqual(['Até logo, Rita!']);
    expect(await logsOf(t.db, ticket.id)).toMatchObject([{ type: 'closed', userId: roles.user.user.id, queueId: ownQueue }]);

    const withOwn = await createPlainUser(t, companyId, { farewellMessage: 'Obrigado, {{name}}.' });
    const second = await newTicket({ status: 'open', userId: withOwn.user.id }, { name: 'Rita Lopes' });
    expect((await put(withOwn, second.id, { status: 'closed', sendFarewellMessage: true })).statusCode).toBe(200);
    expect((await outgoingOf(second.id)).map((m) => m.body)).toEqual(['Obrigado, Rita Lopes.']);
  });

  it('the ticket tells whether its connection has something to send "with farewell" (hasFarewell)', async () => {
    const bare = (await createConnection(t.db, companyId, { complationMessage: '  ' }, [ownQueue])).id;
    const rating = (await createConnection(t.db, companyId, { ratingMessage: 'Nota de 0 a 10?', expiresTicketNPS: 5 }, [ownQueue])).id;
    const silent = await newTicket({ whatsappId: bare });
    const rated = await newTicket({ whatsappId: rating });
    const plain = await newTicket();
    const get = (uuid: string) => t.app.inject({ method: 'GET', url: `/tickets/u/${uuid}`, headers: bearer(roles.admin.token) }).then((r) => r.json<Ticket>());
    expect((await get(silent.uuid)).whatsapp).toMatchObject({ id: bare, hasFarewell: false });
    expect((await get(rated.uuid)).whatsapp).toMatchObject({ id: rating, hasFarewell: true });
    expect((await get(plain.uuid)).whatsapp).toMatchObject({ id: connId, hasFarewell: true });
  });

  it('without the farewell sends nothing', async () => {
    const ticket = await newTicket({ status: 'open', userId: roles.user.user.id });
    expect((await put(roles.user, ticket.id, { status: 'closed', sendFarewellMessage: false })).statusCode).toBe(200);
    expect((await ticketRow(t.db, ticket.id))!.status).toBe('closed');
    expect(await outgoingOf(ticket.id)).toEqual([]);
  });

  it('another plain user cannot close someone’s ticket (403); the admin can', async () => {
    const ticket = await newTicket({ status: 'open', userId: colleague.user.id });
    const res = await put(roles.user, ticket.id, { status: 'closed', sendFarewellMessage: false });
    expect(res.statusCode).toBe(403);
    expect((await ticketRow(t.db, ticket.id))!.status).toBe('open');
    expect((await put(roles.admin, ticket.id, { status: 'closed', sendFarewellMessage: false })).statusCode).toBe(200);
    expect(await logsOf(t.db, ticket.id)).toMatchObject([{ type: 'closed', userId: roles.admin.user.id }]);
  });

  it('with requiredTag on, refuses a contact without tags (nothing changes), then closes once a tag is added', async () => {
    await setCompanySettings(t.db, companyId, { requiredTag: 'enabled' });
    try {
      const ticket = await newTicket({ status: 'open', userId: roles.user.user.id });
      const refused = await put(roles.user, ticket.id, { status: 'closed', sendFarewellMessage: true });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ error: 'ERR_REQUIRED_TAG' });
      expect(await ticketRow(t.db, ticket.id)).toMatchObject({ status: 'open', closedAt: null });
      expect(await logsOf(t.db, ticket.id)).toEqual([]);
      expect(await outgoingOf(ticket.id)).toEqual([]);

      const [tag] = await t.db.insert(tags).values({ companyId, name: `VIP ${ticket.id}`, color: '#FF0000' }).returning();
      await t.db.insert(contactTags).values({ contactId: ticket.contactId, tagId: tag!.id });
      const ok = await put(roles.user, ticket.id, { status: 'closed', sendFarewellMessage: true });
      expect(ok.statusCode).toBe(200);
      expect((await ticketRow(t.db, ticket.id))!.status).toBe('closed');
    } finally {
      await setCompanySettings(t.db, companyId, { requiredTag: 'disabled' });
    }
  });

  it('a closed ticket cannot be closed again: 409 ERR_INVALID_TRANSITION', async () => {
    const ticket = await newTicket({ status: 'closed', userId: roles.user.user.id, closedAt: new Date() });
    const res = await put(roles.user, ticket.id, { status: 'closed' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_INVALID_TRANSITION' });
  });
});

describe('ignore (pending → closed)', () => {
  it('refuses a user without userClosePendingTicket or showDashboard (403)', async () => {
    const plain = await createPlainUser(t, companyId, { userClosePendingTicket: 'disabled', showDashboard: 'disabled' });
    await joinQueues(t.db, companyId, plain.user.id, [ownQueue]);
    const ticket = await newTicket();
    const res = await put(plain, ticket.id, { status: 'closed', sendFarewellMessage: false, amountUsedBotQueues: 0 });
    expect(res.statusCode).toBe(403);
    expect((await ticketRow(t.db, ticket.id))!.status).toBe('pending');
  });

  it('closes without farewell for users with userClosePendingTicket, with showDashboard (the card), and admins', async () => {
    const dashboard = await createPlainUser(t, companyId, { userClosePendingTicket: 'disabled', showDashboard: 'enabled' });
    await joinQueues(t.db, companyId, dashboard.user.id, [ownQueue]);
    for (const who of [roles.user, dashboard, roles.admin]) {
      const ticket = await newTicket();
      const res = await put(who, ticket.id, { status: 'closed', sendFarewellMessage: false, amountUsedBotQueues: 0 });
      expect(res.statusCode).toBe(200);
      expect(res.json<Ticket>().status).toBe('closed');
      expect(await outgoingOf(ticket.id)).toEqual([]);
      expect(await logsOf(t.db, ticket.id)).toMatchObject([{ type: 'closed', userId: who.user.id }]);
    }
  });

  it('also ignores an lgpd ticket', async () => {
    const ticket = await newTicket({ status: 'lgpd' });
    expect((await put(roles.user, ticket.id, { status: 'closed', sendFarewellMessage: false })).json<Ticket>().status).toBe('closed');
  });
});

describe('return to queue', () => {
  it('open → pending with no user; logged', async () => {
    const ticket = await newTicket({ status: 'open', userId: roles.user.user.id });
    const res = await put(roles.user, ticket.id, { status: 'pending', userId: null });
    expect(res.json<Ticket>()).toMatchObject({ status: 'pending', userId: null, queueId: ownQueue });
    expect(await logsOf(t.db, ticket.id)).toMatchObject([{ type: 'pending', userId: roles.user.user.id, queueId: ownQueue }]);
    const again = await put(roles.user, ticket.id, { status: 'pending' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'ERR_INVALID_TRANSITION' });
  });
});

describe('transfer', () => {
  it('to a user: open for them in the new queue; the note is a private message never sent; both logs', async () => {
    const ticket = await newTicket({ status: 'open', userId: roles.user.user.id });
    const sendsBefore = graph.sends().length;
    const res = await put(roles.user, ticket.id, {
      status: 'open',
      userId: colleague.user.id,
      queueId: otherQueue,
      isTransfered: true,
      msgTransfer: 'Cliente quer falar sobre a fatura',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Ticket>()).toMatchObject({ status: 'open', userId: colleague.user.id, queueId: otherQueue });
    expect(await logsOf(t.db, ticket.id)).toMatchObject([
      { type: 'transfered', userId: roles.user.user.id, queueId: otherQueue },
      { type: 'receivedTransfer', userId: colleague.user.id, queueId: otherQueue },
    ]);
    const [note, ...rest] = await outgoingOf(ticket.id);
    expect(rest).toEqual([]);
    expect(note).toMatchObject({ body: 'Cliente quer falar sobre a fatura', isPrivate: true, sendStatus: null, wid: null });
    await sleep(150);
    expect(graph.sends().length).toBe(sendsBefore);
  });

  it('without a user: pending with no owner; the transfer message goes to the customer when enabled', async () => {
    await setCompanySettings(t.db, companyId, { sendMsgTransfTicket: 'enabled', transferMessage: '{{firstName}}, você foi transferida para {{queue}}.' });
    try {
      const ticket = await newTicket({ status: 'open', userId: roles.user.user.id }, { name: 'Ana Costa' });
      const res = await put(roles.user, ticket.id, { queueId: otherQueue, userId: null, status: 'pending', isTransfered: true });
      expect(res.json<Ticket>()).toMatchObject({ status: 'pending', userId: null, queueId: otherQueue });
      const [message] = await outgoingOf(ticket.id);
      expect(message!.body).toBe(`Ana, você foi transferida para ${res.json<Ticket>().queue!.name}.`);
      await eventually(async () => graph.sends().find((s) => JSON.stringify(s.body).includes('Ana, você foi transferida')));
      expect(await logsOf(t.db, ticket.id)).toMatchObject([{ type: 'transfered', userId: roles.user.user.id, queueId: otherQueue }]);
    } finally {
      await setCompanySettings(t.db, companyId, { sendMsgTransfTicket: 'disabled', transferMessage: '' });
    }
  });

  it('with closeTicketOnTransfer on, closes the ticket and goes on in a new one at the destination', async () => {
    await setCompanySettings(t.db, companyId, { closeTicketOnTransfer: 'enabled' });
    try {
      const ticket = await newTicket({ status: 'open', userId: roles.user.user.id });
      const res = await put(roles.user, ticket.id, { queueId: otherQueue, userId: null, status: 'pending', isTransfered: true, msgTransfer: 'Cliente quer segunda via' });
      expect(res.statusCode).toBe(200);
      const moved = res.json<Ticket>();
      expect(moved.id).not.toBe(ticket.id);
      expect(moved).toMatchObject({ status: 'pending', userId: null, queueId: otherQueue, contactId: ticket.contactId, whatsappId: ticket.whatsappId });
      expect(await ticketRow(t.db, ticket.id)).toMatchObject({ status: 'closed' });
      expect((await logsOf(t.db, ticket.id)).map((l) => l.type)).toEqual(['transfered', 'closed']);
      expect(await logsOf(t.db, moved.id)).toMatchObject([{ type: 'create', userId: roles.user.user.id, queueId: otherQueue }]);
      expect((await outgoingOf(moved.id)).map((m) => m.body)).toEqual(['Cliente quer segunda via']);
    } finally {
      await setCompanySettings(t.db, companyId, { closeTicketOnTransfer: 'disabled' });
    }
  });

  it('the user the ticket leaves hears its delete (and so drops it), never the ticket they may no longer open', async () => {
    const port = await listen(t);
    const socket = await openSocket(port, roles.user);
    try {
      const events = collect<{ action: string; ticket?: Ticket; ticketId?: number }>(socket, `company-${companyId}-ticket`);
      const ticket = await newTicket({ status: 'open', userId: roles.user.user.id });
      await put(roles.user, ticket.id, { queueId: otherQueue, userId: colleague.user.id, isTransfered: true });
      await eventually(async () => events.find((e) => e.action === 'delete' && e.ticketId === ticket.id));
      expect(events.filter((e) => e.ticket?.id === ticket.id && e.ticket.userId === colleague.user.id)).toEqual([]);
    } finally {
      socket.disconnect();
    }
  });

  it('needs a queue of the company and a user of the company (400 / 404; nothing changes)', async () => {
    const other = await createQueue(t.db, roles.otherCompanyId, 'Alheia');
    const ticket = await newTicket({ status: 'open', userId: roles.user.user.id });
    const noQueue = await put(roles.user, ticket.id, { userId: colleague.user.id, isTransfered: true });
    expect(noQueue.statusCode).toBe(400);
    expect(noQueue.json()).toEqual({ error: 'ERR_QUEUE_REQUIRED' });
    const foreignQueue = await put(roles.user, ticket.id, { queueId: other.id, isTransfered: true });
    expect(foreignQueue.statusCode).toBe(404);
    expect(foreignQueue.json()).toEqual({ error: 'ERR_NO_QUEUE_FOUND' });
    const foreignUser = await put(roles.user, ticket.id, { queueId: otherQueue, userId: roles.otherAdmin.user.id, isTransfered: true });
    expect(foreignUser.statusCode).toBe(404);
    expect(foreignUser.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
    expect(await ticketRow(t.db, ticket.id)).toMatchObject({ status: 'open', userId: roles.user.user.id, queueId: ownQueue });
    expect(await logsOf(t.db, ticket.id)).toEqual([]);
  });
});

describe('reopen', () => {
  it('closed → open for the acting user in the ticket’s queue; logged', async () => {
    const ticket = await newTicket({ status: 'closed', userId: roles.user.user.id, closedAt: new Date() });
    const res = await put(roles.user, ticket.id, { status: 'open', userId: roles.user.user.id, queueId: ownQueue });
    expect(res.json<Ticket>()).toMatchObject({ id: ticket.id, status: 'open', userId: roles.user.user.id, closedAt: null });
    expect(await logsOf(t.db, ticket.id)).toMatchObject([{ type: 'reopen', userId: roles.user.user.id, queueId: ownQueue }]);
  });

  it('needs a queue (400 ERR_QUEUE_REQUIRED)', async () => {
    const ticket = await newTicket({ status: 'closed', queueId: null, userId: roles.admin.user.id, closedAt: new Date() });
    const res = await put(roles.admin, ticket.id, { status: 'open' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_QUEUE_REQUIRED' });
    expect((await ticketRow(t.db, ticket.id))!.status).toBe('closed');
  });

  it('answers the contact’s other live ticket instead of opening a second one', async () => {
    const closed = await newTicket({ status: 'closed', userId: roles.admin.user.id, closedAt: new Date() });
    const live = await createTicketRow(t.db, { companyId, contactId: closed.contactId, whatsappId: connId, status: 'open', userId: colleague.user.id, queueId: ownQueue });
    const res = await put(roles.admin, closed.id, { status: 'open' });
    expect(res.statusCode).toBe(200);
    expect(res.json<Ticket>()).toMatchObject({ id: live.id, userId: colleague.user.id, user: { name: colleague.user.name }, queue: { id: ownQueue } });
    expect((await ticketRow(t.db, closed.id))!.status).toBe('closed');
    expect(await logsOf(t.db, closed.id)).toEqual([]);
  });
});

describe('reopen race', () => {
  it('two closed tickets of one contact reopened at once: one live ticket, both answers name it', async () => {
    for (let round = 0; round < 3; round++) {
      const first = await newTicket({ status: 'closed', userId: roles.admin.user.id, closedAt: new Date() });
      const second = await createTicketRow(t.db, { companyId, contactId: first.contactId, whatsappId: connId, status: 'closed', queueId: ownQueue, closedAt: new Date() });
      const [a, b] = await Promise.all([put(roles.admin, first.id, { status: 'open' }), put(roles.admin, second.id, { status: 'open' })]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(a.json<Ticket>().id).toBe(b.json<Ticket>().id);
      const states = [(await ticketRow(t.db, first.id))!.status, (await ticketRow(t.db, second.id))!.status].sort();
      expect(states).toEqual(['closed', 'open']);
    }
  });
});

describe('who may act', () => {
  it('return, transfer, reopen and the integration toggle: 403 for a user who may not see the ticket, fine for the admin', async () => {
    const outsider = await createPlainUser(t, companyId);
    await joinQueues(t.db, companyId, outsider.user.id, [otherQueue]);
    const actions: [Partial<Parameters<typeof createTicketRow>[1]>, object, string][] = [
      [{ status: 'open', userId: roles.user.user.id }, { status: 'pending', userId: null }, 'pending'],
      [{ status: 'open', userId: roles.user.user.id }, { isTransfered: true, queueId: otherQueue, userId: null }, 'pending'],
      [{ status: 'closed', userId: roles.user.user.id, closedAt: new Date() }, { status: 'open' }, 'open'],
      [{ status: 'open', userId: roles.user.user.id }, { useIntegration: true }, 'open'],
    ];
    for (const [fields, payload, after] of actions) {
      const ticket = await newTicket(fields);
      const refused = await put(outsider, ticket.id, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(403);
      expect(await ticketRow(t.db, ticket.id)).toMatchObject({ status: fields.status, userId: roles.user.user.id, useIntegration: false });
      expect(await logsOf(t.db, ticket.id)).toEqual([]);
      const done = await put(roles.admin, ticket.id, payload);
      expect(done.statusCode, JSON.stringify(payload)).toBe(200);
      expect(done.json<Ticket>().status).toBe(after);
    }
  });
});

describe('integration toggle, bodies, tenancy', () => {
  it('toggles useIntegration alone', async () => {
    const ticket = await newTicket({ status: 'open', userId: roles.user.user.id });
    expect((await put(roles.user, ticket.id, { useIntegration: true })).json<Ticket>().useIntegration).toBe(true);
    expect((await put(roles.user, ticket.id, { useIntegration: false })).json<Ticket>().useIntegration).toBe(false);
  });

  it('masks the contact number in the answer for a plain user when the company hides numbers', async () => {
    await setCompanySettings(t.db, companyId, { lgpdHideNumber: 'enabled' });
    try {
      const ticket = await newTicket({}, { number: '5511987654321' });
      const res = await put(roles.user, ticket.id, { status: 'open' });
      expect(res.json<Ticket>().contact.number).toBe('5511*****4321');
      const admin = await put(roles.admin, ticket.id, { useIntegration: true });
      expect(admin.json<Ticket>().contact.number).toBe('5511987654321');
    } finally {
      await setCompanySettings(t.db, companyId, { lgpdHideNumber: 'disabled' });
    }
  });

  it('refuses invalid bodies with 400', async () => {
    const ticket = await newTicket();
    for (const payload of [{}, { status: 'bogus' }, { status: 'open', queueId: 'abc' }, { isTransfered: 'yes' }, { status: 'nps' }]) {
      const res = await put(roles.admin, ticket.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await t.app.inject({ method: 'PUT', url: '/tickets/abc', headers: bearer(roles.admin.token), payload: { status: 'open' } })).statusCode).toBe(400);
    expect(await ticketRow(t.db, ticket.id)).toMatchObject({ status: 'pending', userId: null });
  });

  it('another company’s admin gets 404 for every action and nothing changes', async () => {
    const ticket = await newTicket({ status: 'open', userId: roles.user.user.id });
    for (const payload of [
      { status: 'closed' },
      { status: 'pending' },
      { status: 'open' },
      { useIntegration: true },
      { isTransfered: true, queueId: otherQueue },
    ]) {
      const res = await put(roles.otherAdmin, ticket.id, payload);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    }
    expect(await ticketRow(t.db, ticket.id)).toMatchObject({ status: 'open', userId: roles.user.user.id, useIntegration: false, queueId: ownQueue });
    expect((await put(roles.admin, 999_999, { status: 'open' })).statusCode).toBe(404);
  });
});
