import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignShipping, campaigns, companies, messages, queues, ticketTurns, tickets, whatsappQueues } from '../../../db/schema/index.js';
import { createCompanyWithAdmin, createTestApp, sleep, type TestApp } from '../../../../test/helpers.js';
import { customerText, outgoingOf } from '../../../../test/customer.js';
import { createConnection, eventually } from '../../../../test/connections.js';
import { setCompanySettings } from '../../../../test/tickets.js';
import { FakeGraph } from '../../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../../test/fakes/meta-webhook.js';
import type { Connection } from '../../../channels/adapter.js';
import { storeMessages } from '../inbound.js';

/**
 * Messages where no connection behaviour can act end their turn without taking it (quiet.ts).
 * Every case here is one where a step CAN act on a connection with no greeting, no queues, no
 * integration and no prompt — the case the shortcut is for — so a wrong shortcut fails them.
 */
let t: TestApp;
let graph: FakeGraph;
let companyId: number;
let number = 5_593_000_000;

const customer = () => String((number += 1));
const says = async (conn: Connection, from: string, body: string) => (await customerText(t.app.ctx, conn, from, body)).ticketId;
const sent = async (ticketId: number) => (await outgoingOf(t.db, ticketId)).map((m) => m.body);
const turnOf = async (ticketId: number) => (await t.db.select().from(ticketTurns).where(eq(ticketTurns.ticketId, ticketId)))[0];
/** The customer message's behaviours are done: the turn row names it as the last one, and nobody holds the lease. */
const doneWith = (ticketId: number, messageId: number) =>
  eventually(async () => {
    const turn = await turnOf(ticketId);
    return turn?.lastMessageId === messageId && turn.leasedUntil === null;
  });
const plain = () => createConnection(t.db, companyId, { greetingMessage: '', outOfHoursMessage: '' });

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp(metaEnv(graph.url));
  companyId = (await createCompanyWithAdmin(t.db)).company.id;
});

afterAll(async () => {
  await t.close();
  await graph.close();
});

describe('a ticket where nothing can act', () => {
  it('ends the turn of each message, sends nothing and holds no lease', async () => {
    const conn = await plain();
    const from = customer();
    const first = await customerText(t.app.ctx, conn, from, 'oi');
    await doneWith(first.ticketId, first.messageId);
    const second = await customerText(t.app.ctx, conn, from, 'tudo bem?');
    await doneWith(second.ticketId, second.messageId);
    expect(await sent(first.ticketId)).toEqual([]);
  });

  it('waits while another message holds the ticket’s turn, then ends its own', async () => {
    const conn = await plain();
    const from = customer();
    const first = await customerText(t.app.ctx, conn, from, 'oi');
    await doneWith(first.ticketId, first.messageId);
    await t.db.update(ticketTurns).set({ leasedUntil: sql`now() + interval '1 second'` }).where(eq(ticketTurns.ticketId, first.ticketId));
    const second = await customerText(t.app.ctx, conn, from, 'alô');
    await sleep(400);
    expect((await turnOf(first.ticketId))?.lastMessageId).toBe(first.messageId);
    await doneWith(second.ticketId, second.messageId);
  });
});

describe('the lanes\' batches stored together', () => {
  it('share one read: the quiet tickets end their turn, a ticket whose bot can answer is routed', async () => {
    const quiet = await plain();
    const routed = await plain();
    const [vendas, suporte] = await t.db
      .insert(queues)
      .values([
        { companyId, name: 'Vendas G', color: '#00AA01', orderQueue: 1, greetingMessage: 'Bem-vindo a Vendas G' },
        { companyId, name: 'Suporte G', color: '#0000AB', orderQueue: 2, greetingMessage: 'Bem-vindo ao Suporte G' },
      ])
      .returning();
    await t.db.insert(whatsappQueues).values([vendas!, suporte!].map((q) => ({ companyId, whatsappId: routed.id, queueId: q.id })));
    const lanes = [
      { conn: quiet, from: customer() },
      { conn: quiet, from: customer() },
      { conn: routed, from: customer() },
    ];
    const firsts: Awaited<ReturnType<typeof customerText>>[] = [];
    for (const { conn, from } of lanes) {
      const first = await customerText(t.app.ctx, conn, from, 'oi');
      await doneWith(first.ticketId, first.messageId);
      firsts.push(first);
    }
    const routedSent = (await sent(firsts[2]!.ticketId)).length;
    const message = (from: string, wid: string, body: string) => ({
      kind: 'message' as const,
      wid,
      fromMe: false,
      body,
      mediaType: 'chat' as const,
      at: new Date(),
      raw: {},
      chat: { number: from, name: 'Cliente', remoteJid: from, isGroup: false },
    });

    const client = t.app.ctx.db.$client;
    const query = client.query.bind(client);
    let reads = 0;
    client.query = ((config: unknown, ...rest: unknown[]) => {
      if ((config as { name?: string })?.name === 'behaviours_batch_read') reads += 1;
      return (query as (...args: unknown[]) => unknown)(config, ...rest);
    }) as typeof client.query;
    try {
      // Three lanes' batches in the same turn: one store statement, then one behaviours' read.
      await Promise.all(
        lanes.map(({ conn, from }) => storeMessages(t.app.ctx, [message(from, `m_grp_${from}_1`, 'tudo'), message(from, `m_grp_${from}_2`, '2')].map((m) => ({ connection: conn, m })), (emit) => emit())),
      );
      const last = await t.db.select({ id: messages.id, wid: messages.wid }).from(messages).where(inArray(messages.wid, lanes.map(({ from }) => `m_grp_${from}_2`)));
      for (const [i, { from }] of lanes.entries()) await doneWith(firsts[i]!.ticketId, last.find((m) => m.wid === `m_grp_${from}_2`)!.id);
    } finally {
      client.query = query;
    }
    expect(reads).toBe(1);
    expect(await sent(firsts[0]!.ticketId)).toEqual([]);
    expect(await sent(firsts[1]!.ticketId)).toEqual([]);
    await eventually(async () => (await t.db.select().from(tickets).where(eq(tickets.id, firsts[2]!.ticketId)))[0]?.queueId === suporte!.id);
    expect((await sent(firsts[2]!.ticketId)).length).toBeGreaterThan(routedSent);
  });
});

describe('a step that can act still acts', () => {
  it('routes a pending ticket once the connection has queues (the bot answers a message of an existing ticket)', async () => {
    const conn = await plain();
    const from = customer();
    const first = await customerText(t.app.ctx, conn, from, 'oi');
    await doneWith(first.ticketId, first.messageId);
    const [vendas, suporte] = await t.db
      .insert(queues)
      .values([
        { companyId, name: 'Vendas Q', color: '#00AA00', orderQueue: 1, greetingMessage: 'Bem-vindo a Vendas' },
        { companyId, name: 'Suporte Q', color: '#0000AA', orderQueue: 2, greetingMessage: 'Bem-vindo ao Suporte' },
      ])
      .returning();
    await t.db.insert(whatsappQueues).values([vendas!, suporte!].map((q) => ({ companyId, whatsappId: conn.id, queueId: q.id })));
    await says(conn, from, '2');
    await eventually(async () => (await t.db.select().from(tickets).where(eq(tickets.id, first.ticketId)))[0]?.queueId === suporte!.id);
    await eventually(async () => (await sent(first.ticketId)).some((b) => b.includes('Bem-vindo ao Suporte')));
  });

  it('asks the LGPD question of a new customer', async () => {
    await setCompanySettings(t.db, companyId, { enableLGPD: 'enabled', lgpdConsent: 'enabled', lgpdMessage: 'Usamos seus dados.', lgpdLink: '' });
    try {
      const ticketId = await says(await plain(), customer(), 'oi');
      await eventually(async () => (await sent(ticketId))[0]?.startsWith('Usamos seus dados.'));
      expect((await t.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0]!.status).toBe('lgpd');
    } finally {
      await setCompanySettings(t.db, companyId, { enableLGPD: 'disabled', lgpdConsent: 'disabled', lgpdMessage: '' });
    }
  });

  it('sends a campaign message, once, to a contact answering its confirmation request', async () => {
    const conn = await plain();
    const from = customer();
    const first = await customerText(t.app.ctx, conn, from, 'oi');
    await doneWith(first.ticketId, first.messageId);
    const [ticket] = await t.db.select().from(tickets).where(eq(tickets.id, first.ticketId));
    const [campaign] = await t.db
      .insert(campaigns)
      .values({ companyId, name: `Oferta ${from}`, status: 'EM_ANDAMENTO', confirmation: true, confirmationMessage1: 'Posso?', message1: 'Aqui está a oferta!', whatsappId: conn.id })
      .returning();
    await t.db
      .insert(campaignShipping)
      .values({ companyId, campaignId: campaign!.id, number: from, name: 'Cliente', contactId: ticket!.contactId, confirmationRequestedAt: new Date() });
    await says(conn, from, 'Sim');
    await says(conn, from, 'Sim!');
    await eventually(async () => (await sent(first.ticketId)).includes('Aqui está a oferta!'));
    await sleep(300);
    expect((await sent(first.ticketId)).filter((b) => b === 'Aqui está a oferta!')).toHaveLength(1);
  });

  it('answers out of the company’s hours (scheduleType = company) on a message of an existing ticket', async () => {
    const conn = await createConnection(t.db, companyId, { greetingMessage: '', outOfHoursMessage: 'Fechados agora.' });
    const from = customer();
    const first = await customerText(t.app.ctx, conn, from, 'oi');
    await doneWith(first.ticketId, first.messageId);
    expect(await sent(first.ticketId)).toEqual([]);
    const closedAllWeek = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((d) => ({
      weekday: d,
      weekdayEn: d as 'monday',
      startTimeA: '',
      endTimeA: '',
      startTimeB: '',
      endTimeB: '',
    }));
    await t.db.update(companies).set({ schedules: closedAllWeek }).where(eq(companies.id, companyId));
    await setCompanySettings(t.db, companyId, { scheduleType: 'company' });
    try {
      await says(conn, from, 'alguém?');
      await eventually(async () => (await sent(first.ticketId)).includes('Fechados agora.'));
    } finally {
      await setCompanySettings(t.db, companyId, { scheduleType: 'disabled' });
    }
  });
});
