import { asc, inArray } from 'drizzle-orm';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../db/schema/index.js';
import { createCompanyWithAdmin, createTestApp, type TestApp } from '../../../test/helpers.js';
import { createConnection } from '../../../test/connections.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { messengerText, metaEnv, postWebhook } from '../../../test/fakes/meta-webhook.js';
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
