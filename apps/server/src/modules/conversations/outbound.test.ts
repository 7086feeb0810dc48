import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contacts, messages, tickets } from '../../db/schema/index.js';
import { startJobs, stopJobs } from '../../jobs/boss.js';
import { registerChannelJobs } from '../../jobs/channels.js';
import { createCompanyWithAdmin, createTestApp, sleep, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { fixture } from '../../../test/fixtures.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { queueOutgoing, sweepOutbox } from './outbound.js';

let t: TestApp;
let graph: FakeGraph;
let companyId: number;
let ticketId: number;

const reload = async (id: number) => (await t.db.select().from(messages).where(eq(messages.id, id)))[0]!;

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), OUTBOX_RETRY_BASE_MS: '150', OUTBOX_MAX_ATTEMPTS: '4' });
  const c = await createCompanyWithAdmin(t.db);
  companyId = c.company.id;
  const conn = await createConnection(t.db, companyId);
  const [contact] = await t.db.insert(contacts).values({ companyId, channel: 'facebook', name: 'Maria', number: '2000001', remoteJid: '2000001' }).returning();
  const [ticket] = await t.db.insert(tickets).values({ companyId, contactId: contact!.id, whatsappId: conn.id, channel: 'facebook', status: 'open' }).returning();
  ticketId = ticket!.id;
});

afterAll(async () => {
  await t.close();
  await graph.close();
});

describe('outbox', () => {
  it('stores the message (ack 0) before the send, retries with backoff and delivers once', async () => {
    graph.sendFailures = 2;
    const sendsBefore = graph.sends().length;
    const row = await queueOutgoing(t.app.ctx, { companyId, ticketId, body: 'Olá, Maria!' });
    expect(row).toMatchObject({ ack: 0, sendStatus: 'pending', fromMe: true });

    await eventually(async () => (await reload(row.id)).sendAttempts === 1 && (await reload(row.id)).lastError);
    const afterFirst = await reload(row.id);
    expect(afterFirst).toMatchObject({ sendStatus: 'pending', ack: 0 });
    // Backoff: the next attempt is due one base delay after the failure.
    expect(afterFirst.nextAttemptAt!.getTime() - afterFirst.updatedAt.getTime()).toBeGreaterThanOrEqual(140);

    await sleep(170);
    await sweepOutbox(t.app.ctx);
    expect(await reload(row.id)).toMatchObject({ sendAttempts: 2, sendStatus: 'pending' });
    await sleep(320);
    await sweepOutbox(t.app.ctx);
    const sent = await reload(row.id);
    expect(sent).toMatchObject({ sendAttempts: 3, sendStatus: 'sent', ack: 1, lastError: null });
    expect(sent.wid).toMatch(/^m_fake_\d+$/);

    const attempts = graph.sends().slice(sendsBefore);
    expect(attempts).toHaveLength(3);
    expect(attempts[2]!.body).toMatchObject({ recipient: { id: '2000001' }, message: { text: 'Olá, Maria!' } });
    expect(attempts[2]!.query.get('access_token')).toMatch(/^page-token-/);
    await sleep(100);
    await sweepOutbox(t.app.ctx);
    expect(graph.sends().slice(sendsBefore)).toHaveLength(3);
  });

  it('records the outcomes of sends finishing together in fewer statements than sends, each row sent once under its own id', async () => {
    const sendsBefore = graph.sends().length;
    const statements = vi.spyOn(t.app.ctx.db.$client, 'query');
    graph.sendDelayMs = 100;
    try {
      const rows = await Promise.all(Array.from({ length: 12 }, (_, i) => queueOutgoing(t.app.ctx, { companyId, ticketId, body: `Lote ${i}` })));
      const ids = rows.map((r) => r.id);
      const sent = await eventually(async () => {
        const stored = await t.db.select().from(messages).where(inArray(messages.id, ids));
        return stored.every((m) => m.sendStatus === 'sent') ? stored : undefined;
      });
      const batches = statements.mock.calls.filter(([config]) => (config as { name?: string }).name === 'outbox_mark_sent_batch').length;
      expect(batches).toBeGreaterThan(0);
      expect(batches).toBeLessThan(12);
      const answered = graph.sends().slice(sendsBefore);
      expect(answered).toHaveLength(12);
      expect(sent.map((m) => m.ack)).toEqual(sent.map(() => 1));
      expect(new Set(sent.map((m) => m.wid)).size).toBe(12);
      expect(sent.every((m) => m.nextAttemptAt === null && m.lastError === null && m.updatedAt >= m.createdAt)).toBe(true);
      await sleep(200);
      await sweepOutbox(t.app.ctx);
      expect(graph.sends().slice(sendsBefore)).toHaveLength(12);
    } finally {
      graph.sendDelayMs = 0;
      statements.mockRestore();
    }
  });

  it('marks a permanent Graph error failed at once (outside the 24-hour window)', async () => {
    graph.sendError = { status: 400, body: fixture('meta/graph-responses/send-api-error-outside-24h.json') };
    try {
      const row = await queueOutgoing(t.app.ctx, { companyId, ticketId, body: 'Tarde demais' });
      const failed = await eventually(async () => ((await reload(row.id)).sendStatus === 'failed' ? reload(row.id) : undefined));
      expect(failed.sendAttempts).toBe(1);
      expect(failed.lastError).toContain('2018278');
    } finally {
      graph.sendError = undefined;
    }
  });

  it('gives up after the last attempt and marks the message failed', async () => {
    graph.sendFailures = 100;
    try {
      const row = await queueOutgoing(t.app.ctx, { companyId, ticketId, body: 'Nunca chega' });
      for (let i = 0; i < 8 && (await reload(row.id)).sendStatus === 'pending'; i++) {
        await sleep(300);
        await sweepOutbox(t.app.ctx);
      }
      expect(await reload(row.id)).toMatchObject({ sendStatus: 'failed', sendAttempts: 4 });
    } finally {
      graph.sendFailures = 0;
    }
  });

  it('retries through the pg-boss retry job without a manual sweep', async () => {
    const boss = await startJobs(t.pool.options.connectionString!, t.app.log);
    try {
      t.app.ctx.boss = boss;
      await registerChannelJobs(boss, t.app.ctx);
      graph.sendFailures = 2;
      const row = await queueOutgoing(t.app.ctx, { companyId, ticketId, body: 'Via pg-boss' });
      const sent = await eventually(async () => ((await reload(row.id)).sendStatus === 'sent' ? reload(row.id) : undefined), 15_000);
      expect(sent).toMatchObject({ sendAttempts: 3, ack: 1 });
    } finally {
      t.app.ctx.boss = undefined;
      await stopJobs(boss);
    }
  });
});
