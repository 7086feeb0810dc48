import type { Ticket, WebhookEndpoint } from '@balcao/contracts';
import { eq, inArray } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets, webhookDeliveries, whatsapps } from '../../db/schema/index.js';
import { startJobs, stopJobs } from '../../jobs/boss.js';
import { bearer, collect, createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';
import { createContact, createQueue, createTicketRow, ticketRow } from '../../../test/tickets.js';
import { Receiver } from '../../../test/fakes/webhook-receiver.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { closeImportedTickets } from '../conversations/commands/tickets.js';
import { storeMessages } from '../conversations/inbound.js';
import { ticketChanged } from '../conversations/emit.js';
import { sweepWebhooks } from './delivery.js';
import { registerWebhookJobs } from './jobs.js';

let t: TestApp;
let boss: PgBoss;
let roles: Roles;
let receiver: Receiver;
let connectionId: number;
let connectionToken: string;
let graph: FakeGraph;

beforeAll(async () => {
  receiver = await Receiver.start();
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
  boss = await startJobs(t.pool.options.connectionString!, t.app.log);
  t.app.ctx.boss = boss;
  await registerWebhookJobs(boss, t.app.ctx);
  roles = await setupRoles(t);
  const queue = await createQueue(t.db, roles.companyId);
  const connection = await createConnection(t.db, roles.companyId, {}, [queue.id]);
  connectionId = connection.id;
  connectionToken = connection.token!;
});

afterAll(async () => {
  t.app.ctx.boss = undefined;
  await stopJobs(boss);
  await t.close();
  await receiver.close();
  await graph.close();
});

const call = (who: LoggedIn, method: 'POST' | 'PUT', url: string, payload: object) => t.app.inject({ method, url, headers: bearer(who.token), payload });

async function register(path: string, events: string[]): Promise<WebhookEndpoint> {
  const res = await call(roles.admin, 'POST', '/webhooks', { url: `${receiver.url}${path}`, events });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as WebhookEndpoint;
}

async function newTicket(fields: Partial<Parameters<typeof createTicketRow>[1]> = {}) {
  const contact = await createContact(t.db, roles.companyId);
  return createTicketRow(t.db, { companyId: roles.companyId, contactId: contact.id, whatsappId: connectionId, ...fields });
}

const rowsOf = (endpointId: number) => t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
const bodiesAt = (path: string) => receiver.at(path).map((r) => JSON.parse(r.body) as { event: string; data: { ticket: Ticket; previousStatus: string } });
const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

describe('the webhook outbox is written in the transaction of the change', () => {
  it('has the delivery iff the change committed: a rolled back change leaves none', async () => {
    const endpoint = await register('/tx', ['ticket.status_changed']);
    const ticket = await newTicket({ status: 'open', userId: roles.admin.user.id });
    const close = (fail: boolean) =>
      t.app.ctx.events.inTransaction(t.db, async (tx, publish) => {
        await tx.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, ticket.id));
        publish(ticketChanged(t.app.ctx, ticket.id, { userId: ticket.userId, queueId: ticket.queueId, status: 'open' }));
        // A later step of the same command fails: the close and its delivery go together.
        if (fail) throw new Error('later step failed');
      });

    await expect(close(true)).rejects.toThrow('later step failed');
    expect((await ticketRow(t.db, ticket.id))!.status).toBe('open');
    await settle();
    expect(await rowsOf(endpoint.id)).toHaveLength(0);
    expect(receiver.at('/tx')).toHaveLength(0);

    await close(false);
    const [hit] = await eventually(async () => (receiver.at('/tx').length ? bodiesAt('/tx') : undefined));
    expect(hit).toMatchObject({ event: 'ticket.status_changed', data: { previousStatus: 'open', ticket: { id: ticket.id, status: 'closed' } } });
    // Marked delivered once the receiver's answer is in.
    const [row] = await eventually(async () => {
      const rows = await rowsOf(endpoint.id);
      return rows[0]?.status === 'delivered' ? rows : undefined;
    });
    expect(row).toMatchObject({ ref: { ticketId: ticket.id, previousStatus: 'open', status: 'closed' } });
  });

  it('loses nothing when the process dies between the commit and the event: the sweep presents it from its ref', async () => {
    const endpoint = await register('/crash', ['ticket.status_changed']);
    const ticket = await newTicket({ status: 'pending' });
    // The command's transaction commits (change + outbox row), then nothing runs after it.
    await t.db.transaction(async (tx) => {
      await tx.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, ticket.id));
      await t.app.ctx.events.record(tx, { type: 'ticket.status', changes: [{ ticketId: ticket.id, previousStatus: 'pending' }] });
    });
    const [orphan] = await rowsOf(endpoint.id);
    expect(orphan).toMatchObject({ status: 'pending', payload: null, attempts: 0 });
    // Its grace (left for the after-commit presenting) is over.
    await t.db.update(webhookDeliveries).set({ nextAttemptAt: new Date() }).where(eq(webhookDeliveries.id, orphan!.id));
    await sweepWebhooks(t.app.ctx);
    expect(bodiesAt('/crash')).toMatchObject([{ event: 'ticket.status_changed', data: { previousStatus: 'pending', ticket: { id: ticket.id, status: 'closed' } } }]);
    const [sent] = await rowsOf(endpoint.id);
    expect(sent).toMatchObject({ status: 'delivered', attempts: 1, payload: { previousStatus: 'pending', ticket: { id: ticket.id } } });
  });

  it('a change whose status stays the same writes no delivery', async () => {
    const endpoint = await register('/same', ['ticket.status_changed']);
    const ticket = await newTicket({ status: 'pending' });
    await t.db.transaction((tx) => t.app.ctx.events.record(tx, { type: 'ticket.status', changes: [{ ticketId: ticket.id, previousStatus: 'pending' }] }));
    expect(await rowsOf(endpoint.id)).toHaveLength(0);
  });
});

describe('mass closes announce each ticket as a single close does', () => {
  it('close-all: one ticket.status_changed delivery and one socket update per closed ticket', async () => {
    const endpoint = await register('/close-all', ['ticket.status_changed']);
    const queue = (await createQueue(t.db, roles.companyId)).id;
    const pending = [await newTicket({ queueId: queue }), await newTicket({ queueId: queue }), await newTicket({ queueId: queue })];
    const untouched = await newTicket({ queueId: queue, status: 'open', userId: roles.admin.user.id });
    const socket = await openSocket(await listen(t), roles.admin);
    try {
      const updates = collect<{ action: string; ticket?: Ticket }>(socket, `company-${roles.companyId}-ticket`);
      const res = await call(roles.admin, 'POST', '/tickets/closeAll', { status: 'pending', selectedQueueIds: [queue] });
      expect(res.json()).toEqual({ count: 3 });

      const ids = pending.map((p) => p.id).sort();
      const hits = await eventually(async () => (bodiesAt('/close-all').length >= 3 ? bodiesAt('/close-all') : undefined));
      await settle();
      // Exactly once per ticket, with the status it left.
      expect(bodiesAt('/close-all')).toHaveLength(3);
      expect(hits.map((h) => h.data.ticket.id).sort()).toEqual(ids);
      expect(hits.every((h) => h.event === 'ticket.status_changed' && h.data.previousStatus === 'pending' && h.data.ticket.status === 'closed')).toBe(true);
      await eventually(async () => (await rowsOf(endpoint.id)).every((r) => r.status === 'delivered'));
      const closedUpdates = updates.filter((u) => u.action === 'update' && u.ticket?.status === 'closed' && ids.includes(u.ticket.id));
      expect(closedUpdates.map((u) => u.ticket!.id).sort()).toEqual(ids);
      expect(updates.some((u) => u.ticket?.id === untouched.id)).toBe(false);
    } finally {
      socket.disconnect();
    }
  });

  it('closing imported tickets: each delivery carries the status that ticket left', async () => {
    const endpoint = await register('/imported', ['ticket.status_changed']);
    const imported = [await newTicket({ status: 'pending' }), await newTicket({ status: 'open', userId: roles.admin.user.id })];
    await t.db
      .update(tickets)
      .set({ importedAt: new Date() })
      .where(inArray(tickets.id, imported.map((i) => i.id)));

    // Tickets imported earlier by other tests on this connection close too; only these are checked.
    await closeImportedTickets(t.app.ctx, roles.companyId, connectionId);
    const byTicket = await eventually(async () => {
      const got = new Map(bodiesAt('/imported').map((h) => [h.data.ticket.id, h.data.previousStatus]));
      return imported.every((i) => got.has(i.id)) ? got : undefined;
    });
    expect(byTicket.get(imported[0]!.id)).toBe('pending');
    expect(byTicket.get(imported[1]!.id)).toBe('open');
    expect(await rowsOf(endpoint.id)).toHaveLength(2);
  });

  it('another company’s endpoints hear nothing of these closes', async () => {
    const theirs = await call(roles.otherAdmin, 'POST', '/webhooks', { url: `${receiver.url}/theirs`, events: ['ticket.status_changed'] });
    expect(theirs.statusCode).toBe(200);
    const queue = (await createQueue(t.db, roles.companyId)).id;
    await newTicket({ queueId: queue });
    expect((await call(roles.admin, 'POST', '/tickets/closeAll', { status: 'pending', selectedQueueIds: [queue] })).json()).toEqual({ count: 1 });
    await settle();
    expect(receiver.at('/theirs')).toHaveLength(0);
    expect(await rowsOf((theirs.json() as WebhookEndpoint).id)).toHaveLength(0);
  });
});

describe('writers that commit on their own record their facts too', () => {
  it('the messages API: the new contact and the sent message, each delivered once with its presented payload', async () => {
    // A message before the first endpoint: the company is known to want nothing, until its endpoints are saved.
    const before = await t.app.inject({ method: 'POST', url: '/api/messages/send', headers: bearer(connectionToken), payload: { number: `55118${String(Date.now()).slice(-8)}`, body: 'Antes' } });
    expect(before.statusCode, before.body).toBe(200);
    const contacts = await register('/api-contact', ['contact.created']);
    const messages = await register('/api-message', ['message.created']);
    const number = `55119${String(Date.now()).slice(-8)}`;
    const res = await t.app.inject({ method: 'POST', url: '/api/messages/send', headers: bearer(connectionToken), payload: { number, body: 'Pedido confirmado' } });
    expect(res.statusCode, res.body).toBe(200);

    const [contact] = await eventually(async () => (receiver.at('/api-contact').length ? receiver.at('/api-contact').map((r) => JSON.parse(r.body) as { data: { contact: { number: string } } }) : undefined));
    expect(contact!.data.contact.number).toBe(number);
    const [message] = await eventually(async () =>
      receiver.at('/api-message').length ? receiver.at('/api-message').map((r) => JSON.parse(r.body) as { data: { message: { body: string; fromMe: boolean } } }) : undefined,
    );
    expect(message!.data.message).toMatchObject({ body: 'Pedido confirmado', fromMe: true });
    await settle();
    expect(await rowsOf(contacts.id)).toHaveLength(1);
    expect(await rowsOf(messages.id)).toHaveLength(1);
  });

  it('inbound messages of a known customer with a live ticket: each delivered once (the one-statement store stands aside for a subscribed company)', async () => {
    const endpoint = await register('/inbound-message', ['message.created']);
    const [connection] = await t.db.select().from(whatsapps).where(eq(whatsapps.id, connectionId));
    const number = `55117${String(Date.now()).slice(-8)}`;
    const text = (wid: string) => ({ kind: 'message' as const, wid, fromMe: false, body: wid, mediaType: 'chat' as const, at: new Date(), raw: {}, chat: { number, name: 'Cliente', remoteJid: number, isGroup: false } });
    await storeMessages(t.app.ctx, [{ connection: connection!, m: text(`m_hook_${number}_1`) }], (emit) => emit());
    // Now known, with a live ticket: the batch the one-statement path would take.
    await storeMessages(t.app.ctx, [2, 3].map((n) => ({ connection: connection!, m: text(`m_hook_${number}_${n}`) })), (emit) => emit());
    const bodies = await eventually(async () => (receiver.at('/inbound-message').length >= 3 ? receiver.at('/inbound-message').map((r) => JSON.parse(r.body) as { data: { message: { body: string } } }) : undefined));
    expect(bodies.map((b) => b.data.message.body).sort()).toEqual([1, 2, 3].map((n) => `m_hook_${number}_${n}`));
    await settle();
    expect(await rowsOf(endpoint.id)).toHaveLength(3);
  });
});
