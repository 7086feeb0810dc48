import type { AddressInfo } from 'node:net';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, tickets } from '../../db/schema/index.js';
import { collect, connectSocket, createCompanyWithAdmin, createTestApp, login, nextEvent, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection } from '../../../test/connections.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { sweepOutbox } from './outbound.js';
import { deliverBatch, failInterruptedBatches } from './outbound-deliver-batch.js';

let t: TestApp;
let second: TestApp;
let graph: FakeGraph;
let admin: LoggedIn;
let companyId: number;
const ticketIds: number[] = [];

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), OUTBOX_RETRY_BASE_MS: '60000' });
  // A second server process on the same database.
  second = await createTestApp(metaEnv(graph.url), {}, t.pool.options.connectionString);
  const c = await createCompanyWithAdmin(t.db);
  companyId = c.company.id;
  admin = await login(t.app, c.email, c.password);
  const conn = await createConnection(t.db, companyId);
  for (let i = 0; i < 12; i++) {
    const [contact] = await t.db.insert(contacts).values({ companyId, channel: 'facebook', name: `Lote ${i}`, number: `71000${i}`, remoteJid: `71000${i}` }).returning();
    const [ticket] = await t.db.insert(tickets).values({ companyId, contactId: contact!.id, whatsappId: conn.id, channel: 'facebook', status: 'open' }).returning();
    ticketIds.push(ticket!.id);
  }
});

afterAll(async () => {
  await second?.close();
  await t?.close();
  await graph?.close();
});

/** Outbox rows as `queueOutgoingBatch` stores them, one per ticket; `fields` sets what a crash left. */
async function outboxRows(prefix: string, fields: Partial<typeof messages.$inferInsert> = {}, on = ticketIds) {
  const ticketRows = await t.db.select().from(tickets).where(inArray(tickets.id, on));
  return t.db
    .insert(messages)
    .values(
      ticketRows.map((ticket, i) => ({
        companyId: ticket.companyId,
        ticketId: ticket.id,
        whatsappId: ticket.whatsappId,
        body: `${prefix} ${i}`,
        fromMe: true,
        read: true,
        sendStatus: 'pending' as const,
        nextAttemptAt: new Date(Date.now() + 60_000),
        ...fields,
      })),
    )
    .returning();
}

const sendsOf = (prefix: string) => graph.sends().filter((s) => JSON.stringify(s.body).includes(prefix));
const reload = (ids: number[]) => t.db.select().from(messages).where(inArray(messages.id, ids));

describe('outbox batch send (deliverBatch)', () => {
  it('sends each row once, records them sent in one pass and announces each as updated', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const socket = connectSocket((t.app.server.address() as AddressInfo).port, companyId, { userId: String(admin.user.id), token: `Bearer ${admin.token}` });
    await nextEvent(socket, 'connect');
    const updates = collect<{ action: string; message: { id: number; ack: number } }>(socket, `company-${companyId}-appMessage`);
    try {
      const rows = await outboxRows('Lote enviado');
      await deliverBatch(t.app.ctx, rows.map((r) => r.id));
      expect(sendsOf('Lote enviado')).toHaveLength(rows.length);
      for (const row of await reload(rows.map((r) => r.id))) {
        expect(row).toMatchObject({ sendStatus: 'sent', ack: 1, sendAttempts: 1, nextAttemptAt: null, batchClaimedAt: null });
        expect(row.wid).toMatch(/^m_fake_\d+$/);
      }
      await sleep(300);
      const announced = updates.filter((u) => u.action === 'update' && rows.some((r) => r.id === u.message.id));
      expect(announced.map((u) => u.message.id).sort()).toEqual(rows.map((r) => r.id).sort());
      expect(announced.every((u) => u.message.ack === 1)).toBe(true);
    } finally {
      socket.disconnect();
    }
  });

  it('sends each row exactly once when two processes batch-send the same rows while both sweep the outbox', async () => {
    graph.sendDelayMs = 30;
    try {
      // Their first send never happened (a lapsed lease): the sweepers race the batches for them.
      const rows = await outboxRows('Corrida do lote', { nextAttemptAt: new Date(Date.now() - 1000) });
      const ids = rows.map((r) => r.id);
      await Promise.all([deliverBatch(t.app.ctx, ids), deliverBatch(second.app.ctx, ids), sweepOutbox(t.app.ctx), sweepOutbox(second.app.ctx)]);
      await sleep(200);
      const bodies = sendsOf('Corrida do lote').map((s) => JSON.stringify(s.body));
      expect(bodies).toHaveLength(rows.length);
      expect(new Set(bodies).size).toBe(rows.length);
      expect((await reload(ids)).every((r) => r.sendStatus === 'sent' && r.sendAttempts === 1)).toBe(true);
      // A third pass finds nothing to send.
      await Promise.all([deliverBatch(t.app.ctx, ids), sweepOutbox(second.app.ctx)]);
      expect(sendsOf('Corrida do lote')).toHaveLength(rows.length);
    } finally {
      graph.sendDelayMs = 0;
    }
  });

  it('never sends again what a batch of a crashed process claimed: an old claim turns failed, a live one is left alone', async () => {
    const dead = await outboxRows('Lote do processo morto', { sendAttempts: 1, nextAttemptAt: null, batchClaimedAt: new Date(Date.now() - 600_000) }, ticketIds.slice(0, 4));
    const live = await outboxRows('Lote em voo', { sendAttempts: 1, nextAttemptAt: null, batchClaimedAt: new Date(Date.now() - 5000) }, ticketIds.slice(4, 6));
    for (const ctx of [t.app.ctx, second.app.ctx]) {
      await sweepOutbox(ctx);
      await deliverBatch(ctx, [...dead, ...live].map((r) => r.id));
    }
    expect(await failInterruptedBatches(t.app.ctx)).toBe(dead.length);
    expect(await failInterruptedBatches(second.app.ctx)).toBe(0);
    await sweepOutbox(t.app.ctx);
    expect(sendsOf('Lote do processo morto')).toHaveLength(0);
    expect(sendsOf('Lote em voo')).toHaveLength(0);
    for (const row of await reload(dead.map((r) => r.id))) {
      expect(row).toMatchObject({ sendStatus: 'failed', batchClaimedAt: null });
      expect(row.lastError).toMatch(/interrupted/);
    }
    expect((await reload(live.map((r) => r.id))).every((r) => r.sendStatus === 'pending' && r.batchClaimedAt !== null)).toBe(true);
  });

  it('leaves a failed send to the outbox retry rule and releases its claim; the rest of the batch goes out', async () => {
    // A ticket without a connection (it was removed): that send fails for good, the others are not held back.
    const [first] = await t.db.select().from(tickets).where(eq(tickets.id, ticketIds[0]!));
    const [bare] = await t.db.insert(tickets).values({ companyId, contactId: first!.contactId, whatsappId: null, channel: 'facebook', status: 'closed' }).returning();
    const [gone] = await outboxRows('Lote sem conexão', {}, [bare!.id]);
    const rest = await outboxRows('Lote com conexão', {}, ticketIds.slice(1, 3));
    await deliverBatch(t.app.ctx, [gone!.id, ...rest.map((r) => r.id)]);
    const [failed] = await reload([gone!.id]);
    expect(failed).toMatchObject({ sendStatus: 'failed', batchClaimedAt: null, lastError: 'the ticket has no connection' });
    expect(sendsOf('Lote com conexão')).toHaveLength(2);
    expect((await reload(rest.map((r) => r.id))).every((r) => r.sendStatus === 'sent')).toBe(true);
  });

  it('a transient channel error is retried later by the outbox, not marked failed', async () => {
    const rows = await outboxRows('Lote instável', {}, ticketIds.slice(0, 2));
    graph.sendFailures = 2;
    await deliverBatch(t.app.ctx, rows.map((r) => r.id));
    for (const row of await reload(rows.map((r) => r.id))) {
      expect(row).toMatchObject({ sendStatus: 'pending', sendAttempts: 1, batchClaimedAt: null });
      expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    }
  });
});
