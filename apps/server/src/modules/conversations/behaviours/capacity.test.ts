import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatbots, queues, tickets, userQueues, users } from '../../../db/schema/index.js';
import { createCompanyWithAdmin, createTestApp, sleep, type TestApp } from '../../../../test/helpers.js';
import { createConnection, eventually } from '../../../../test/connections.js';
import { createContact, createTicketRow, logsOf, setCompanySettings } from '../../../../test/tickets.js';
import { FakeGraph } from '../../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../../test/fakes/meta-webhook.js';
import { customerText, outgoingOf } from '../../../../test/customer.js';
import type { Connection } from '../../../channels/adapter.js';
import { assignWaiting } from '../commands/automation-bot.js';
import { onlineAttendants, rotateQueueTickets } from './router.js';

/** Per-attendant capacity (users.maxOpenTickets): every automatic assignment skips a full attendant. */
let t: TestApp;
let graph: FakeGraph;
let companyId: number;
let seq = 0;
let number = 5_591_000_000;

async function queue(name: string, fields: Partial<typeof queues.$inferInsert> = {}) {
  const [row] = await t.db.insert(queues).values({ companyId, name: `${name} ${seq}`, color: `#12${String(seq++).padStart(4, '0')}`, ...fields }).returning();
  return row!.id;
}

async function attendant(queueId: number, maxOpenTickets: number | null) {
  seq += 1;
  const [row] = await t.db
    .insert(users)
    .values({ companyId, name: `Atendente ${seq}`, email: `capacity-${seq}-${Date.now()}@example.com`, passwordHash: 'x', online: true, maxOpenTickets })
    .returning();
  await t.db.insert(userQueues).values({ companyId, userId: row!.id, queueId });
  return row!.id;
}

let conn: Connection;
/** A ticket in the user's hands (open), so they hold one. */
async function holding(userId: number, queueId: number) {
  const contact = await createContact(t.db, companyId);
  return (await createTicketRow(t.db, { companyId, contactId: contact.id, whatsappId: conn.id, queueId, userId, status: 'open' })).id;
}

const customerSays = async (connection: Connection, from: string, body: string) => (await customerText(t.app.ctx, connection, from, body)).ticketId;

const ticketOf = async (id: number) => (await t.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
const outgoing = (ticketId: number) => outgoingOf(t.db, ticketId);
const customer = () => String((number += 1));

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp(metaEnv(graph.url));
  companyId = (await createCompanyWithAdmin(t.db)).company.id;
  conn = await createConnection(t.db, companyId);
});
afterAll(async () => {
  await t.close();
  await graph.close();
});

describe('attendant capacity', () => {
  it('lists the attendants with the tickets they hold (open or pending in their hands), closed ones not counted', async () => {
    const q = await queue('Contagem');
    const a = await attendant(q, 3);
    await holding(a, q);
    const contact = await createContact(t.db, companyId);
    await createTicketRow(t.db, { companyId, contactId: contact.id, whatsappId: conn.id, queueId: q, userId: a, status: 'pending' });
    await createTicketRow(t.db, { companyId, contactId: (await createContact(t.db, companyId)).id, whatsappId: conn.id, queueId: q, userId: a, status: 'closed' });
    expect(await onlineAttendants(t.app.ctx, companyId, q)).toEqual([{ id: a, held: 2, max: 3 }]);
  });

  it("two assignments at once cannot both take an attendant's last place", async () => {
    const q = await queue('Última vaga');
    const a = await attendant(q, 1);
    const waiting = async () =>
      createTicketRow(t.db, { companyId, contactId: (await createContact(t.db, companyId)).id, whatsappId: conn.id, queueId: q, status: 'pending' });
    const [x, y] = [await waiting(), await waiting()];
    const results = await Promise.all([assignWaiting(t.app.ctx, x, a), assignWaiting(t.app.ctx, y, a)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await onlineAttendants(t.app.ctx, companyId, q))[0]).toMatchObject({ id: a, held: 1 });
  });

  it('the router skips a full attendant, counting the tickets it hands out in the same round', async () => {
    const q = await queue('Rodízio', { ativarRoteador: true, tempoRoteador: 5 });
    const full = await attendant(q, 1);
    const roomy = await attendant(q, 2);
    const unlimited = await attendant(q, 0);
    await holding(full, q);
    await holding(roomy, q);
    const old = new Date(Date.now() - 6 * 60_000);
    const first = (await createTicketRow(t.db, { companyId, contactId: (await createContact(t.db, companyId)).id, whatsappId: conn.id, queueId: q, status: 'pending', createdAt: old })).id;
    const second = (await createTicketRow(t.db, { companyId, contactId: (await createContact(t.db, companyId)).id, whatsappId: conn.id, queueId: q, status: 'pending', createdAt: old })).id;

    expect(await rotateQueueTickets(t.app.ctx)).toBe(2);
    // The first goes past the full attendant to the one with room, who is then full: the second goes on.
    expect((await ticketOf(first)).userId).toBe(roomy);
    expect((await ticketOf(second)).userId).toBe(unlimited);
    expect((await logsOf(t.db, first)).map((l) => [l.type, l.userId])).toEqual([
      ['transfered', null],
      ['receivedTransfer', roomy],
    ]);

    // Next round: the first one's next attendant is unlimited; the second wraps round past the full one back to roomy.
    const later = new Date(Date.now() + 6 * 60_000);
    await rotateQueueTickets(t.app.ctx, later);
    expect((await ticketOf(first)).userId).toBe(unlimited);
    expect((await ticketOf(second)).userId).toBe(roomy);

    // Nobody with room: the ticket stays where it is.
    await t.db.update(users).set({ maxOpenTickets: 1 }).where(eq(users.id, unlimited));
    await t.db.update(users).set({ maxOpenTickets: 2 }).where(eq(users.id, roomy));
    await rotateQueueTickets(t.app.ctx, new Date(later.getTime() + 6 * 60_000));
    expect((await ticketOf(first)).userId).toBe(unlimited);
    expect((await ticketOf(second)).userId).toBe(roomy);
    await t.db.update(tickets).set({ status: 'closed' }).where(eq(tickets.queueId, q));
  });

  it('userRandom gives the ticket only to an attendant with room; with none, it waits in the queue', async () => {
    const q = await queue('Aleatória');
    const full = await attendant(q, 1);
    const roomy = await attendant(q, null);
    await holding(full, q);
    await setCompanySettings(t.db, companyId, { userRandom: 'enabled' });
    const single = await createConnection(t.db, companyId, { greetingMessage: 'Olá' }, [q]);
    // Several tickets: a random pick among both would land on the full one about half the time.
    for (let i = 0; i < 4; i++) {
      const id = await customerSays(single, customer(), 'oi');
      expect(await eventually(async () => (await ticketOf(id)).userId)).toBe(roomy);
      expect(await ticketOf(id)).toMatchObject({ status: 'pending', queueId: q });
    }
    await t.db.update(users).set({ maxOpenTickets: 4 }).where(eq(users.id, roomy));
    const waiting = await customerSays(single, customer(), 'oi');
    await eventually(async () => (await ticketOf(waiting)).botFinishedAt);
    await sleep(300);
    expect(await ticketOf(waiting)).toMatchObject({ status: 'pending', queueId: q, userId: null });
    await setCompanySettings(t.db, companyId, { userRandom: 'disabled' });
  });

  it('DirectTicketsToWallets skips a full owner: the returning customer gets the menu instead', async () => {
    const q1 = await queue('Carteira A');
    const q2 = await queue('Carteira B');
    const owner = await attendant(q1, 2);
    await holding(owner, q1);
    await setCompanySettings(t.db, companyId, { DirectTicketsToWallets: 'enabled' });
    const menu = await createConnection(t.db, companyId, { greetingMessage: 'Escolha:' }, [q1, q2]);
    const returning = async () => {
      const contact = await createContact(t.db, companyId, { number: customer() });
      await createTicketRow(t.db, { companyId, contactId: contact.id, whatsappId: menu.id, queueId: q1, userId: owner, status: 'closed', closedAt: new Date(Date.now() - 3_600_000) });
      return contact.number;
    };

    // Room for one more: the first returning customer goes to the owner…
    const first = await customerSays(menu, await returning(), 'voltei');
    await eventually(async () => (await ticketOf(first)).userId);
    expect(await ticketOf(first)).toMatchObject({ userId: owner, queueId: q1, status: 'pending' });

    // …who is then full: the second one gets the menu and waits without an attendant.
    const second = await customerSays(menu, await returning(), 'voltei');
    const [greeting] = await eventually(async () => {
      const rows = await outgoing(second);
      return rows.length > 0 && rows;
    });
    expect(greeting!.body).toContain('Escolha:\n\n*1* - ');
    expect(await ticketOf(second)).toMatchObject({ userId: null, status: 'pending' });
    expect((await logsOf(t.db, second)).map((l) => l.type)).toEqual(['create']);
    await setCompanySettings(t.db, companyId, { DirectTicketsToWallets: 'disabled' });
  });

  it("a bot's attendent option with a full attendant leaves the ticket pending in the queue, logged", async () => {
    const q = await queue('Bot');
    const full = await attendant(q, 1);
    await holding(full, q);
    await t.db.insert(chatbots).values({ companyId, queueId: q, position: 0, name: 'Falar com alguém', greetingMessage: 'Chamando', queueType: 'attendent', optUserId: full });
    const single = await createConnection(t.db, companyId, { greetingMessage: '' }, [q]);
    const from = customer();
    const id = await customerSays(single, from, 'oi');
    await eventually(async () => (await outgoing(id)).length >= 1);
    await customerSays(single, from, '1');
    await eventually(async () => (await ticketOf(id)).botFinishedAt);
    expect(await ticketOf(id)).toMatchObject({ status: 'pending', queueId: q, userId: null });
    expect((await logsOf(t.db, id)).map((l) => [l.type, l.userId])).toEqual([
      ['create', null],
      ['chatBot', null],
    ]);

    // With room, the same option gives the ticket to the attendant.
    await t.db.update(users).set({ maxOpenTickets: 2 }).where(eq(users.id, full));
    const other = customer();
    const next = await customerSays(single, other, 'oi');
    await eventually(async () => (await outgoing(next)).length >= 1);
    await customerSays(single, other, '1');
    await eventually(async () => (await ticketOf(next)).userId);
    expect(await ticketOf(next)).toMatchObject({ status: 'open', userId: full });
  });
});
