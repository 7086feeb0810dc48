import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queues, tickets, userQueues, users } from '../../../db/schema/index.js';
import { createCompanyWithAdmin, createTestApp, sleep, type TestApp } from '../../../../test/helpers.js';
import { createConnection, eventually } from '../../../../test/connections.js';
import { createContact, createTicketRow, logsOf, setCompanySettings } from '../../../../test/tickets.js';
import { FakeGraph } from '../../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../../test/fakes/meta-webhook.js';
import { processInbound } from '../inbound.js';
import { onlineAttendants, rotateQueueTickets } from './router.js';

let t: TestApp;
let graph: FakeGraph;
let companyId: number;
let queueId: number;
let otherQueue: number;
const ids: Record<'ana' | 'bia' | 'caio' | 'off' | 'night' | 'elsewhere', number> = { ana: 0, bia: 0, caio: 0, off: 0, night: 0, elsewhere: 0 };
let seq = 0;

async function attendant(name: string, queue: number, fields: Partial<typeof users.$inferInsert> = {}) {
  seq += 1;
  const [row] = await t.db
    .insert(users)
    .values({ companyId, name, email: `router-${seq}-${Date.now()}@example.com`, passwordHash: 'x', profile: 'user', online: true, ...fields })
    .returning();
  await t.db.insert(userQueues).values({ companyId, userId: row!.id, queueId: queue });
  return row!.id;
}

const ticketOf = async (id: number) => (await t.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp(metaEnv(graph.url));
  companyId = (await createCompanyWithAdmin(t.db)).company.id;
  const [q, other] = await t.db
    .insert(queues)
    .values([
      { companyId, name: 'Rodízio', color: '#123123', ativarRoteador: true, tempoRoteador: 5 },
      { companyId, name: 'Outra', color: '#321321' },
    ])
    .returning();
  queueId = q!.id;
  otherQueue = other!.id;
  ids.ana = await attendant('Ana', queueId);
  ids.bia = await attendant('Bia', queueId);
  ids.off = await attendant('Offline', queueId, { online: false });
  // Works one minute, three hours from now: never during this test.
  const shift = new Date(Date.now() + 3 * 3_600_000);
  const minute = `${String(shift.getHours()).padStart(2, '0')}:${String(shift.getMinutes()).padStart(2, '0')}`;
  ids.night = await attendant('Noturno', queueId, { startWork: minute, endWork: minute });
  ids.caio = await attendant('Caio', queueId);
  ids.elsewhere = await attendant('Outra fila', otherQueue);
});
afterAll(async () => {
  await t.close();
  await graph.close();
});

describe('assignment to attendants', () => {
  it('offers only online attendants of the queue inside their work hours', async () => {
    expect((await onlineAttendants(t.app.ctx, companyId, queueId)).map((a) => a.id)).toEqual([ids.ana, ids.bia, ids.caio]);
  });

  it('rotates an unanswered pending ticket to the next online attendant every tempoRoteador minutes, logged', async () => {
    const contact = await createContact(t.db, companyId);
    const conn = await createConnection(t.db, companyId, {}, [queueId]);
    const old = new Date(Date.now() - 6 * 60_000);
    const id = (await createTicketRow(t.db, { companyId, contactId: contact.id, whatsappId: conn.id, queueId, status: 'pending', createdAt: old })).id;
    const fresh = (await createTicketRow(t.db, { companyId, contactId: (await createContact(t.db, companyId)).id, whatsappId: conn.id, queueId, status: 'pending' })).id;

    expect(await rotateQueueTickets(t.app.ctx)).toBe(1);
    expect((await ticketOf(id)).userId).toBe(ids.ana);
    expect((await ticketOf(fresh)).userId).toBeNull();
    expect((await logsOf(t.db, id)).map((l) => [l.type, l.userId])).toEqual([
      ['transfered', null],
      ['receivedTransfer', ids.ana],
    ]);
    // Not again before another tempoRoteador minutes…
    expect(await rotateQueueTickets(t.app.ctx)).toBe(0);
    // …then to the next one, skipping the offline and the off-hours attendants, and round again.
    const later = new Date(Date.now() + 6 * 60_000);
    await rotateQueueTickets(t.app.ctx, later);
    expect((await ticketOf(id)).userId).toBe(ids.bia);
    await rotateQueueTickets(t.app.ctx, new Date(later.getTime() + 6 * 60_000));
    expect((await ticketOf(id)).userId).toBe(ids.caio);
    await rotateQueueTickets(t.app.ctx, new Date(later.getTime() + 12 * 60_000));
    expect((await ticketOf(id)).userId).toBe(ids.ana);
    // An accepted ticket is no longer rotated.
    await t.db.update(tickets).set({ status: 'open' }).where(eq(tickets.id, id));
    await rotateQueueTickets(t.app.ctx, new Date(later.getTime() + 30 * 60_000));
    expect((await ticketOf(id)).userId).toBe(ids.ana);
    await t.db.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, id));
    await t.db.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, fresh));
  });

  it('with userRandom, gives a ticket the bot leaves in a queue to one of its online attendants', async () => {
    await setCompanySettings(t.db, companyId, { userRandom: 'enabled' });
    const conn = await createConnection(t.db, companyId, { greetingMessage: 'Olá' }, [queueId]);
    const result = await processInbound(t.app.ctx, conn, {
      kind: 'message',
      wid: `m_router_${Date.now()}`,
      fromMe: false,
      body: 'oi',
      mediaType: 'chat',
      at: new Date(),
      chat: { number: '5511900001111', name: 'Cliente', remoteJid: '5511900001111', isGroup: false },
      raw: {},
    });
    if (result.outcome !== 'stored') throw new Error(result.outcome);
    const assigned = await eventually(async () => (await ticketOf(result.ticketId)).userId);
    expect([ids.ana, ids.bia, ids.caio]).toContain(assigned);
    expect(await ticketOf(result.ticketId)).toMatchObject({ status: 'pending', queueId });
    await sleep(100);
    await setCompanySettings(t.db, companyId, { userRandom: 'disabled' });
  });

  it('with DirectTicketsToWallets, gives a returning customer to the attendant who served them last, without the menu', async () => {
    await setCompanySettings(t.db, companyId, { DirectTicketsToWallets: 'enabled' });
    const conn = await createConnection(t.db, companyId, { greetingMessage: 'Escolha:' }, [queueId, otherQueue]);
    const contact = await createContact(t.db, companyId);
    await createTicketRow(t.db, { companyId, contactId: contact.id, whatsappId: conn.id, queueId: otherQueue, userId: ids.elsewhere, status: 'closed', closedAt: new Date(Date.now() - 3_600_000) });
    const result = await processInbound(t.app.ctx, conn, {
      kind: 'message',
      wid: `m_wallet_${Date.now()}`,
      fromMe: false,
      body: 'voltei',
      mediaType: 'chat',
      at: new Date(),
      chat: { number: contact.number, name: contact.name, remoteJid: contact.number, isGroup: false },
      raw: {},
    });
    if (result.outcome !== 'stored') throw new Error(result.outcome);
    expect(result.ticketCreated).toBe(true);
    await eventually(async () => (await ticketOf(result.ticketId)).userId);
    expect(await ticketOf(result.ticketId)).toMatchObject({ userId: ids.elsewhere, queueId: otherQueue, status: 'pending' });
    expect((await logsOf(t.db, result.ticketId)).at(-1)).toMatchObject({ type: 'receivedTransfer', userId: ids.elsewhere });
    await sleep(300);
    const sent = await t.db.select().from(tickets).where(eq(tickets.id, result.ticketId));
    expect(sent[0]!.lastMessage).toBe('voltei');
    await setCompanySettings(t.db, companyId, { DirectTicketsToWallets: 'disabled' });
  });
});

