import type { TicketEventPayload } from '@balcao/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, inboundEvents, messages, tickets } from '../../db/schema/index.js';
import { collect, createCompanyWithAdmin, createTestApp, login, sleep, type TestApp } from '../../../test/helpers.js';
import { listen, openSocket } from '../../../test/roles.js';
import { createConnection } from '../../../test/connections.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { messengerText, metaEnv, postWebhook } from '../../../test/fakes/meta-webhook.js';
import { processInbound, storeMessages } from './inbound.js';
import { inboundQueue, ingestTrace, type IngestPhase, type IngestTrace } from './ingest.js';

let t: TestApp;
let graph: FakeGraph;

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp(metaEnv(graph.url));
});

afterAll(async () => {
  await t.close();
  await graph.close();
});

/** A customer's text message as the WhatsApp adapter decodes it; the raw item carries its id. */
function text(number: string, wid: string, name = `Cliente ${number}`) {
  return {
    kind: 'message' as const,
    wid,
    fromMe: false,
    body: wid,
    mediaType: 'chat' as const,
    at: new Date(),
    raw: { wid },
    chat: { number, name, remoteJid: number, isGroup: false },
  };
}

describe('a burst of webhooks (issue 10, Performance)', () => {
  it('is stored by shared inserts and batched transactions: every message once, in received order per customer, one ticket each', async () => {
    const { company, email, password } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id);
    const socket = await openSocket(await listen(t), await login(t.app, email, password));
    const updates = collect<TicketEventPayload>(socket, `company-${company.id}-ticket`);
    const customers = ['7100001', '7100002', '7100003'];
    const bodies = Array.from({ length: 45 }, (_, i) => messengerText(conn.facebookPageId!, customers[i % 3]!, `m_burst_${i}`, `burst ${i}`));
    // Posted in the same turn: their raw events share statements, and each lane has several waiting at once.
    const answers = await Promise.all(bodies.map((b) => postWebhook(t.app, b)));
    expect(answers.map((a) => a.statusCode)).toEqual(bodies.map(() => 200));
    await inboundQueue(t.app.ctx).drained();

    const mids = bodies.map((_, i) => `m_burst_${i}`);
    const received = await t.db.select({ id: inboundEvents.id, payload: inboundEvents.payload }).from(inboundEvents).orderBy(asc(inboundEvents.id));
    const stored = await t.db
      .select({ wid: messages.wid, ticketId: messages.ticketId, contactId: messages.contactId })
      .from(messages)
      .where(inArray(messages.wid, mids))
      .orderBy(asc(messages.id));
    expect(stored.map((m) => m.wid).sort()).toEqual([...mids].sort());
    // Every raw event was processed (and so emptied).
    expect(received.filter((r) => JSON.stringify(r.payload).includes('m_burst_'))).toEqual([]);

    const liveTickets = await t.db.select({ id: tickets.id, contactId: tickets.contactId }).from(tickets).where(eq(tickets.companyId, company.id));
    expect(liveTickets).toHaveLength(3);
    for (const ticket of liveTickets) {
      const own = stored.filter((m) => m.ticketId === ticket.id);
      expect(own).toHaveLength(15);
      expect(own.every((m) => m.contactId === ticket.contactId)).toBe(true);
      // Posted in one turn, received (and numbered) in posting order: stored in that order.
      const order = own.map((m) => Number(m.wid!.slice('m_burst_'.length)));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }

    // Each message's ticket event is the ticket as that message left it, though a batch touched it once.
    await sleep(300);
    socket.disconnect();
    const final = await t.db.select().from(tickets).where(eq(tickets.companyId, company.id));
    for (const ticket of final) {
      const own = stored.filter((m) => m.ticketId === ticket.id).map((m) => `burst ${m.wid!.slice('m_burst_'.length)}`);
      expect(ticket.unreadMessages).toBe(15);
      expect(ticket.lastMessage).toBe(own.at(-1));
      const heard = updates.flatMap((u) => (u.action === 'update' && 'ticket' in u && u.ticket?.id === ticket.id ? [u.ticket] : []));
      expect(heard.map((h) => h.unreadMessages)).toEqual(own.map((_, i) => i + 1));
      expect(heard.map((h) => h.lastMessage)).toEqual(own);
    }
  });

  it('knows a redelivery before its transaction: the one read before it answers duplicate, nothing is stored twice', async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id);
    let downloads = 0;
    const loadMedia = async () => {
      downloads += 1;
      return null;
    };
    const chat = { number: '7100009', name: 'Rita', remoteJid: '7100009', isGroup: false };
    const message = { kind: 'message' as const, wid: 'm_again_1', fromMe: false, body: 'de novo', mediaType: 'image' as const, at: new Date(), raw: {}, chat, loadMedia };
    expect((await processInbound(t.app.ctx, conn, message)).outcome).toBe('stored');
    expect((await processInbound(t.app.ctx, conn, message)).outcome).toBe('duplicate');
    // The media of a redelivery is not downloaded again: the read before the transaction stopped it.
    expect(downloads).toBe(1);
    expect(await t.db.select({ id: messages.id }).from(messages).where(eq(messages.wid, 'm_again_1'))).toHaveLength(1);
  });

  it('a batch of known customers where one ticket was closed meanwhile: stored once each, in order, that customer gets one new live ticket', async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id, { timeCreateNewTicket: 0 });
    const first = await processInbound(t.app.ctx, conn, text('7100021', 'm_mixed_a1'));
    const closing = await processInbound(t.app.ctx, conn, text('7100022', 'm_mixed_b1'));
    if (first.outcome !== 'stored' || closing.outcome !== 'stored') throw new Error('not stored');
    await t.db.update(tickets).set({ status: 'closed', closedAt: new Date() }).where(eq(tickets.id, closing.ticketId));

    // Both contacts are known, but B's message needs a new ticket: the batch goes through the transaction, whole.
    const batch = [text('7100021', 'm_mixed_a2'), text('7100022', 'm_mixed_b2'), text('7100021', 'm_mixed_a3'), text('7100021', 'm_mixed_a2')];
    await storeMessages(t.app.ctx, batch.map((m) => ({ connection: conn, m })), (emit) => emit());

    const stored = await t.db
      .select({ wid: messages.wid, ticketId: messages.ticketId })
      .from(messages)
      .where(inArray(messages.wid, ['m_mixed_a1', 'm_mixed_a2', 'm_mixed_a3', 'm_mixed_b1', 'm_mixed_b2']))
      .orderBy(asc(messages.id));
    expect(stored.map((m) => m.wid)).toEqual(['m_mixed_a1', 'm_mixed_b1', 'm_mixed_a2', 'm_mixed_b2', 'm_mixed_a3']);
    const live = await t.db.select().from(tickets).where(and(eq(tickets.companyId, company.id), inArray(tickets.status, ['pending', 'open'])));
    expect(live).toHaveLength(2);
    const ticketB = live.find((row) => row.id !== first.ticketId)!;
    expect(ticketB.id).not.toBe(closing.ticketId);
    expect(stored.find((m) => m.wid === 'm_mixed_b2')!.ticketId).toBe(ticketB.id);
    expect(live.find((row) => row.id === first.ticketId)).toMatchObject({ unreadMessages: 3, lastMessage: 'm_mixed_a3' });
  });

  it('a batch of known customers with live tickets: stored once each, in order, on their tickets, a redelivery in it left out', async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id);
    const a = await processInbound(t.app.ctx, conn, text('7100031', 'm_known_a1'));
    const b = await processInbound(t.app.ctx, conn, text('7100032', 'm_known_b1'));
    if (a.outcome !== 'stored' || b.outcome !== 'stored') throw new Error('not stored');
    const heard: { ticket: number; unread: number; last: string | null }[] = [];
    t.app.ctx.events.subscribe((e) => {
      if (e.type === 'message.created' && e.message.body.startsWith('m_known_')) heard.push({ ticket: e.ticket.id, unread: e.ticket.unreadMessages, last: e.ticket.lastMessage });
    });
    const batch = [text('7100031', 'm_known_a2'), text('7100032', 'm_known_b2'), text('7100031', 'm_known_a1'), text('7100031', 'm_known_a3')];
    await storeMessages(t.app.ctx, batch.map((m) => ({ connection: conn, m })), (emit) => emit());

    const stored = await t.db
      .select({ wid: messages.wid, ticketId: messages.ticketId, data: messages.data })
      .from(messages)
      .where(eq(messages.companyId, company.id))
      .orderBy(asc(messages.id));
    expect(stored.map((m) => [m.wid, m.ticketId])).toEqual([
      ['m_known_a1', a.ticketId],
      ['m_known_b1', b.ticketId],
      ['m_known_a2', a.ticketId],
      ['m_known_b2', b.ticketId],
      ['m_known_a3', a.ticketId],
    ]);
    expect(stored.at(-1)!.data).toEqual({ wid: 'm_known_a3' });
    // Each message announced with its ticket as it left it.
    expect(heard).toEqual([
      { ticket: a.ticketId, unread: 2, last: 'm_known_a2' },
      { ticket: b.ticketId, unread: 2, last: 'm_known_b2' },
      { ticket: a.ticketId, unread: 3, last: 'm_known_a3' },
    ]);
    const [ticketA] = await t.db.select().from(tickets).where(eq(tickets.id, a.ticketId));
    expect(ticketA).toMatchObject({ unreadMessages: 3, lastMessage: 'm_known_a3', lastMessageFromMe: false });
  });

  it('a known customer whose message brings a real name for the placeholder one: the contact is updated, the one statement stands aside', async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id);
    const named = (name: string, wid: string) => text('7100041', wid, name);
    const first = await processInbound(t.app.ctx, conn, named('', 'm_named_1'));
    if (first.outcome !== 'stored') throw new Error('not stored');
    const [before] = await t.db.select().from(contacts).where(and(eq(contacts.companyId, company.id), eq(contacts.number, '7100041')));
    expect(before!.name).toBe('7100041');
    // Unchanged: the one statement stores it on the live ticket.
    expect(await processInbound(t.app.ctx, conn, named('', 'm_named_2'))).toMatchObject({ outcome: 'stored', ticketId: first.ticketId });
    await storeMessages(t.app.ctx, [{ connection: conn, m: named('Joana', 'm_named_3') }, { connection: conn, m: named('Joana', 'm_named_4') }], (emit) => emit());
    const [after] = await t.db.select().from(contacts).where(eq(contacts.id, before!.id));
    expect(after!.name).toBe('Joana');
    const stored = await t.db.select({ wid: messages.wid, ticketId: messages.ticketId }).from(messages).where(eq(messages.companyId, company.id)).orderBy(asc(messages.id));
    expect(stored).toEqual(['m_named_1', 'm_named_2', 'm_named_3', 'm_named_4'].map((wid) => ({ wid, ticketId: first.ticketId })));
  });

  it('the lanes\' batches handed in together share one statement; a batch needing a new ticket is stored apart, the others by that statement', async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id, { timeCreateNewTicket: 0 });
    const numbers = ['7100051', '7100052', '7100053'];
    const firsts = [];
    for (const n of numbers) firsts.push(await processInbound(t.app.ctx, conn, text(n, `m_group_${n}_0`)));
    const ticketIds = firsts.map((f) => (f.outcome === 'stored' ? f.ticketId : 0));
    await t.db.update(tickets).set({ status: 'closed', closedAt: new Date() }).where(eq(tickets.id, ticketIds[2]!));

    const client = t.app.ctx.db.$client;
    const query = client.query.bind(client);
    let statements = 0;
    client.query = ((config: unknown, ...rest: unknown[]) => {
      if ((config as { name?: string })?.name === 'inbound_store_known') statements += 1;
      return (query as (...args: unknown[]) => unknown)(config, ...rest);
    }) as typeof client.query;
    try {
      // Three lanes' batches in the same turn, the third one's ticket closed meanwhile.
      await Promise.all(
        numbers.map((n) => storeMessages(t.app.ctx, [1, 2, 3].map((i) => ({ connection: conn, m: text(n, `m_group_${n}_${i}`) })), (emit) => emit())),
      );
    } finally {
      client.query = query;
    }
    expect(statements).toBe(1);
    const stored = await t.db.select({ wid: messages.wid, ticketId: messages.ticketId }).from(messages).where(eq(messages.companyId, company.id)).orderBy(asc(messages.id));
    for (const [k, n] of numbers.entries()) {
      const own = stored.filter((m) => m.wid!.startsWith(`m_group_${n}_`));
      expect(own.map((m) => m.wid)).toEqual([0, 1, 2, 3].map((i) => `m_group_${n}_${i}`));
      if (k < 2) expect(own.every((m) => m.ticketId === ticketIds[k])).toBe(true);
    }
    const third = stored.filter((m) => m.wid!.startsWith('m_group_7100053_') && m.wid !== 'm_group_7100053_0');
    expect(new Set(third.map((m) => m.ticketId)).size).toBe(1);
    expect(third[0]!.ticketId).not.toBe(ticketIds[2]);
    const live = await t.db.select().from(tickets).where(and(eq(tickets.companyId, company.id), inArray(tickets.status, ['pending', 'open'])));
    expect(live.map((row) => [row.id, row.unreadMessages]).sort((a, b) => a[0]! - b[0]!)).toEqual([
      [ticketIds[0], 4],
      [ticketIds[1], 4],
      [third[0]!.ticketId, 3],
    ]);
  });

  it('a batch PostgreSQL refuses fails alone: the batches that shared its statement are stored, and only their events marked processed', async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id);
    for (const n of ['7100061', '7100062']) await processInbound(t.app.ctx, conn, text(n, `m_poison_${n}_0`));
    const events = await t.db
      .insert(inboundEvents)
      .values(['m_poison_7100061_1', 'm_poison_7100062_1'].map((wid) => ({ source: 'meta', payload: { wid }, attempts: 1 })))
      .returning({ id: inboundEvents.id });
    const outcomes = await Promise.allSettled([
      storeMessages(t.app.ctx, [{ connection: conn, m: text('7100061', 'm_poison_7100061_1') }], (emit) => emit(), [events[0]!.id]),
      // A NUL character: refused by jsonb and by text columns alike.
      storeMessages(t.app.ctx, [{ connection: conn, m: { ...text('7100062', 'm_poison_7100062_1'), body: 'nul \u0000 here' } }], (emit) => emit(), [events[1]!.id]),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: true });
    const stored = await t.db.select({ wid: messages.wid }).from(messages).where(eq(messages.companyId, company.id)).orderBy(asc(messages.id));
    expect(stored.map((m) => m.wid)).toEqual(['m_poison_7100061_0', 'm_poison_7100062_0', 'm_poison_7100061_1']);
    // Marked iff stored: the refused batch's event stays for the sweeper, its payload kept.
    const marks = await t.db.select().from(inboundEvents).where(inArray(inboundEvents.id, events.map((e) => e.id))).orderBy(asc(inboundEvents.id));
    expect(marks.map((e) => [e.processedAt !== null, e.payload])).toEqual([
      [true, {}],
      [false, { wid: 'm_poison_7100062_1' }],
    ]);
  });

  it("known customers' webhooks are marked processed by the statement that stores them: no mark statement of their own", async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id);
    const customers = ['7100071', '7100072'];
    const post = (round: number) => Promise.all(customers.map((c) => postWebhook(t.app, messengerText(conn.facebookPageId!, c, `m_mark_${c}_${round}`, `mark ${round}`))));
    // First messages: new contacts and tickets, the transaction path (marked by the timer).
    await post(0);
    await inboundQueue(t.app.ctx).drained();

    const marking: string[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
      const text = typeof config === 'string' ? config : (config as { text?: string })?.text;
      if (text && /update "inbound_events"/i.test(text)) marking.push(text);
      return (query as (...args: unknown[]) => unknown).call(this, config, ...rest);
    } as typeof query;
    try {
      for (const round of [1, 2, 3]) expect((await post(round)).map((a) => a.statusCode)).toEqual([200, 200]);
      await inboundQueue(t.app.ctx).drained();
    } finally {
      pg.Client.prototype.query = query;
    }
    expect(marking).toEqual([]);
    const wids = customers.flatMap((c) => [1, 2, 3].map((r) => `m_mark_${c}_${r}`));
    expect((await t.db.select({ wid: messages.wid }).from(messages).where(inArray(messages.wid, wids))).map((m) => m.wid).sort()).toEqual([...wids].sort());
    // Every event processed, so emptied.
    const events = await t.db.select().from(inboundEvents).where(sql`${inboundEvents.payload}::text LIKE '%m_mark_%'`);
    expect(events).toEqual([]);
  });
});

describe('acknowledgements first during a burst (issue 10, Performance)', () => {
  it("holds a burst's stored events from the lanes while more deliveries arrive, then processes each once, in order per customer", async () => {
    const { company } = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, company.id);
    const customers = ['7200001', '7200002'];
    const wave = (from: number) => Array.from({ length: 30 }, (_, i) => messengerText(conn.facebookPageId!, customers[i % 2]!, `m_hold_${from + i}`, `hold ${from + i}`));
    const phases: IngestPhase[] = [];
    let second: ReturnType<typeof postAll> | undefined;
    const postAll = (bodies: object[]) => Promise.all(bodies.map((b) => postWebhook(t.app, b)));
    const onTrace = (m: unknown) => {
      const { phase, payloads } = m as IngestTrace;
      if (!payloads.some((p) => JSON.stringify(p).includes('m_hold_'))) return;
      phases.push(phase);
      // The first wave is stored: the second arrives while it could be processed.
      if (phase === 'stored') second ??= postAll(wave(30));
    };
    subscribe(ingestTrace.name, onTrace);
    try {
      const first = await postAll(wave(0));
      // Traced before the first wave's answers, so already posting.
      const answers = [...first, ...(await second!)];
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
      await inboundQueue(t.app.ctx).drained();
    } finally {
      unsubscribe(ingestTrace.name, onTrace);
    }

    // No event of the burst reached a lane before the last delivery was stored (acknowledged).
    expect(phases.filter((p) => p === 'stored').length).toBeGreaterThanOrEqual(2);
    expect(phases.indexOf('lane')).toBeGreaterThan(phases.lastIndexOf('stored'));
    const mids = [...wave(0), ...wave(30)].map((b) => b.entry[0]!.messaging[0]!.message.mid);
    const stored = await t.db.select({ wid: messages.wid, contactId: messages.contactId }).from(messages).where(inArray(messages.wid, mids)).orderBy(asc(messages.id));
    expect(stored.map((m) => m.wid).sort()).toEqual([...mids].sort());
    for (const contactId of new Set(stored.map((m) => m.contactId))) {
      const order = stored.filter((m) => m.contactId === contactId).map((m) => Number(m.wid!.slice('m_hold_'.length)));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
  });
});
