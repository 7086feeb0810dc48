// Inbound throughput and webhook-to-socket latency (a benchmark, not a test).
// Starts the API in this process (embedded PostgreSQL, or the server at DATABASE_URL),
// connects BENCH_AGENTS agent sockets, posts signed Meta webhook bursts through the same
// path as `npm run simulate`, and reports messages/s and p50/p95/p99 latency; then a steady
// BENCH_RATE messages/s phase (latency at that load), checks nothing was lost, duplicated
// or reordered, and runs PostgreSQL's own `pgbench -N` (8 clients, 30 s) on the same server
// as the reference: processed messages/s is printed as a fraction of pgbench's tps.
// Everything stays on loopback; Graph calls (profile lookups) go to the local fake.
//   npm run bench:ingest
//   BENCH_MESSAGES=5000 BENCH_CONCURRENCY=100 BENCH_AGENTS=50 npm run bench:ingest
// BENCH_TRACE=1: where the steady phase's latency and the burst's acknowledgements go, step by step (bench/ingest-trace.ts).
// BENCH_ACKS_ONLY=1: processing paused, only the burst's acknowledgements are timed (req/s, CPU per request).
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { parseConfig } from '../apps/server/src/config.js';
import { createDb, createPool } from '../apps/server/src/db/client.js';
import { benchDatabase } from './database.js';
import { migrateAndSeed } from '../apps/server/src/db/migrate.js';
import { hashPassword } from '../apps/server/src/db/passwords.js';
import { companies, companySettings, plans, users, whatsapps } from '../apps/server/src/db/schema/index.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { generateConnectionToken } from '../apps/server/src/modules/whatsapp/service.js';
import { runClients, runClientsInChild, type PhaseMark } from './ingest-clients.js';
import { FakeGraph } from '../apps/server/test/fakes/graph-server.js';
import { COMPANY_SETTING_DEFAULTS } from '@balcao/contracts';
import { asc } from 'drizzle-orm';
import { messages } from '../apps/server/src/db/schema/index.js';
import { printPgbenchReference } from './pgbench.js';
import { startIngestTrace } from './ingest-trace.js';
import { postgresCpuMs } from './cpu.js';
import { inboundQueue } from '../apps/server/src/modules/conversations/ingest.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const AGENTS = num('BENCH_AGENTS', 20);
const MESSAGES = num('BENCH_MESSAGES', 2000);
const CONCURRENCY = num('BENCH_CONCURRENCY', 50);
const SENDERS = num('BENCH_SENDERS', 200);
const WARMUP = num('BENCH_WARMUP', 100);
const RATE = num('BENCH_RATE', 100);
const STEADY_SECONDS = num('BENCH_STEADY_SECONDS', 10);
const PGBENCH_SECONDS = num('BENCH_PGBENCH_SECONDS', 30);
/** 1: the agent sockets and the posts run in a child process (as pgbench's clients do), not on the server's thread. */
const CLIENT_PROCESS = process.env.BENCH_CLIENT_PROCESS === '1';
const TRACE = process.env.BENCH_TRACE === '1';
/** 1: stored events are not processed (the lanes never see them): the acknowledgement path alone. */
const ACKS_ONLY = process.env.BENCH_ACKS_ONLY === '1';
const load = () => loadavg().map((l) => l.toFixed(2)).join(' / ');
const SECRET = 'bench-app-secret';
const PAGE = '1000001';
const PASSWORD = 'bench-password-1';

/** Busy and total jiffies of every CPU of the machine (/proc/stat): whether the burst had a core to spare, whoever used it. */
function machineJiffies(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3]! - f[4]!, total };
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const database = await benchDatabase('bench');
  const { dataDir, connectionString } = database;
  const graph = await FakeGraph.start();
  // Profile pictures point at the fake too (it has none): no lookups of the real CDN from a benchmark.
  graph.profilePic = `${graph.origin}/bench-picture.jpg`;
  try {
    await migrateAndSeed(connectionString, { adminEmail: 'bench@balcao.local', adminPassword: PASSWORD });
    const config = parseConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      FACEBOOK_APP_SECRET: SECRET,
      GRAPH_API_URL: graph.url,
      RATE_LIMIT_MAX: '10000000',
      LOGIN_MAX_PER_IP: '100000',
      LOGIN_MAX_PER_EMAIL: '100000',
    });
    const pool = createPool(connectionString, 20);
    const db = createDb(pool);
    const app = await buildApp({ config, secrets: { jwtSecret: randomBytes(32).toString('hex'), jwtRefreshSecret: randomBytes(32).toString('hex') }, pool });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const api = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    // One company, AGENTS agents who see the whole company, one Messenger Page.
    const [plan] = await db.insert(plans).values({ name: `Bench ${Date.now()}`, users: AGENTS + 1, connections: 5 }).returning();
    const [company] = await db.insert(companies).values({ name: `Bench ${Date.now()}`, planId: plan!.id, dueDate: '2999-01-01' }).returning();
    await db.insert(companySettings).values({ companyId: company!.id, ...COMPANY_SETTING_DEFAULTS });
    const passwordHash = await hashPassword(PASSWORD);
    const agents = await db
      .insert(users)
      .values(Array.from({ length: AGENTS }, (_, i) => ({ companyId: company!.id, name: `Agent ${i}`, email: `agent-${i}-${Date.now()}@bench.local`, passwordHash, allTicket: 'enabled' as const })))
      .returning();
    await db.insert(whatsapps).values({ companyId: company!.id, name: 'Bench Page', channel: 'facebook', status: 'CONNECTED', token: generateConnectionToken(), facebookPageId: PAGE, facebookPageToken: 'bench-page-token', isDefault: true });

    const input = {
      api,
      companyId: company!.id,
      agents: agents.map((a) => ({ id: a.id, email: a.email })),
      password: PASSWORD,
      secret: SECRET,
      page: PAGE,
      messages: MESSAGES,
      concurrency: CONCURRENCY,
      senders: SENDERS,
      warmup: WARMUP,
      rate: RATE,
      steadySeconds: STEADY_SECONDS,
      acksOnly: ACKS_ONLY,
    };
    if (ACKS_ONLY) {
      // Nothing is processed; one decode a second keeps the Page's connection row cached, as processing does.
      let nextDecode = 0;
      inboundQueue(app.ctx).schedule = (e) => {
        if (Date.now() < nextDecode) return;
        nextDecode = Date.now() + 1000;
        void app.ctx.channels.decode(e.source, e.payload);
      };
    }
    const tracer = TRACE ? startIngestTrace(pool) : undefined;
    // The server's CPU time (user + system, this process) over each phase; with the clients in a
    // child process it is the server's alone, otherwise it includes signing posts and decoding frames.
    const cpuAt = new Map<PhaseMark, NodeJS.CpuUsage>();
    const postgresAt = new Map<PhaseMark, number>();
    const machineAt = new Map<PhaseMark, { busy: number; total: number }>();
    const mark = (m: PhaseMark) => {
      cpuAt.set(m, process.cpuUsage());
      machineAt.set(m, machineJiffies());
      if (database.postmasterPid) postgresAt.set(m, postgresCpuMs(database.postmasterPid));
      if (m === 'steady-start') tracer?.steadyStart();
      if (m === 'steady-end') tracer?.steadyEnd();
    };
    const res = CLIENT_PROCESS ? await runClientsInChild(input, mark) : await runClients(input, mark);
    /** CPU ms per message over a phase: user + system, and user alone. */
    const cpuPerMessage = (phase: 'burst' | 'steady', count: number) => {
      const start = cpuAt.get(`${phase}-start`)!;
      const end = cpuAt.get(`${phase}-end`)!;
      const user = (end.user - start.user) / 1000 / count;
      const postgres = database.postmasterPid ? `; PostgreSQL ${((postgresAt.get(`${phase}-end`)! - postgresAt.get(`${phase}-start`)!) / count).toFixed(2)} ms` : '';
      return `${(user + (end.system - start.system) / 1000 / count).toFixed(2)} ms (user ${user.toFixed(2)} ms)${postgres}`;
    };
    const machineBusy = (phase: 'burst' | 'steady') => {
      const [a, b] = [machineAt.get(`${phase}-start`)!, machineAt.get(`${phase}-end`)!];
      return `${((100 * (b.busy - a.busy)) / Math.max(1, b.total - a.total)).toFixed(0)} %`;
    };
    const { burst: r, steady: st, loadBefore, loadAfterBurst, loadAfterSteady } = res;
    const sentAt = new Map(res.sentAt);
    const ackedAt = new Map(res.ackedAt);
    const fanout = res.deliveries / (MESSAGES * AGENTS);
    /** Post → 200 of the burst's posts (the warm-up's come first). */
    const burstMids = res.sentAt.slice(WARMUP, WARMUP + MESSAGES).map(([mid]) => mid);
    const ackLatency = burstMids
      .map((mid) => ackedAt.get(mid)! - sentAt.get(mid)!)
      .sort((a, b) => a - b);
    const ackPct = `post → 200 p50 ${percentile(ackLatency, 0.5).toFixed(0)} ms, p99 ${percentile(ackLatency, 0.99).toFixed(0)} ms`;
    if (ACKS_ONLY) {
      console.log(
        [
          `load average (1/5/15 min): before ${loadBefore}; after the burst ${loadAfterBurst}`,
          `ACKS ONLY (processing paused): ${MESSAGES} webhook posts, ${CONCURRENCY} in flight, clients ${CLIENT_PROCESS ? 'in a child process' : "in the server's process"}`,
          `webhook acks: ${(MESSAGES / (r.postedMs / 1000)).toFixed(0)} req/s (${ackPct}); refused ${r.refused}`,
          `server CPU per acknowledged request: ${cpuPerMessage('burst', MESSAGES)}`,
          `client CPU per request (${CLIENT_PROCESS ? 'its own process' : "shared with the server's"}): ${(r.clientCpuMs / MESSAGES).toFixed(2)} ms`,
        ].join('\n'),
      );
      if (tracer) console.log(tracer.ackReport(burstMids, sentAt, ackedAt, res.timeOrigin));
      await app.close();
      await pool.end();
      return;
    }

    // Every acknowledged message stored once; a customer's message posted after the previous one was
    // acknowledged is stored after it (two posts in flight at once have no order to keep).
    const rows = await db.select({ wid: messages.wid, body: messages.body, contactId: messages.contactId }).from(messages).orderBy(asc(messages.id));
    const stored = new Map<string, number>();
    for (const row of rows) if (row.wid) stored.set(row.wid, (stored.get(row.wid) ?? 0) + 1);
    const lost = [...sentAt.keys()].filter((mid) => !stored.has(mid)).length;
    const duplicated = [...stored.values()].filter((n) => n > 1).length;
    const storedBefore = new Map<number, string[]>();
    let reordered = 0;
    for (const row of rows) {
      if (!row.contactId || !row.wid || !sentAt.has(row.wid)) continue;
      const earlier = storedBefore.get(row.contactId) ?? [];
      // Stored after `row` although posted once `row` had been acknowledged: out of order.
      if (earlier.some((mid) => sentAt.get(mid)! > ackedAt.get(row.wid!)!)) reordered++;
      storedBefore.set(row.contactId, [...earlier, row.wid]);
    }
    const processed = MESSAGES / (r.totalMs / 1000);
    const pct = (l: number[]) => `p50 ${percentile(l, 0.5).toFixed(0)} ms, p95 ${percentile(l, 0.95).toFixed(0)} ms, p99 ${percentile(l, 0.99).toFixed(0)} ms`;
    console.log(
      [
        `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM (${(freemem() / 2 ** 30).toFixed(0)} GiB free), Node ${process.version}`,
        `load average (1/5/15 min): before ${loadBefore}; after the burst ${loadAfterBurst}; after the steady phase ${loadAfterSteady}`,
        `database: ${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}; ${AGENTS} agent sockets; ${MESSAGES} messages from ${SENDERS} customers, ${CONCURRENCY} concurrent webhook posts; clients ${CLIENT_PROCESS ? 'in a child process' : "in the server's process"}`,
        `webhook acks: ${(MESSAGES / (r.postedMs / 1000)).toFixed(0)} req/s (${ackPct}); refused ${r.refused}; never emitted ${r.missing}; client CPU ${(r.clientCpuMs / MESSAGES).toFixed(2)} ms per request`,
        `processed (post → every message emitted): ${processed.toFixed(0)} messages/s over ${(r.totalMs / 1000).toFixed(1)} s; posts ${(r.postedMs / 1000).toFixed(2)} s, then ${((r.totalMs - r.postedMs) / 1000).toFixed(2)} s until the last was emitted`,
        `burst webhook-to-socket latency: ${pct(r.latencies)}`,
        `steady ${RATE} msg/s for ${STEADY_SECONDS} s: refused ${st.refused}, never emitted ${st.missing}; webhook-to-socket latency ${pct(st.latencies)}`,
        `server CPU per message (${CLIENT_PROCESS ? "server's process only" : 'server + clients, one process'}): burst ${cpuPerMessage('burst', MESSAGES)}; steady ${cpuPerMessage('steady', RATE * STEADY_SECONDS)}`,
        `burst, whole: client CPU ${(r.clientBurstCpuMs / MESSAGES).toFixed(2)} ms per message (posts and the sockets' frames); the machine's ${cpus().length} CPUs ${machineBusy('burst')} busy (every process)`,
        `integrity: ${lost} lost, ${duplicated} duplicated, ${reordered} out of order per customer (of ${sentAt.size} posted)`,
        `fan-out: ${(fanout * 100).toFixed(1)}% of ${MESSAGES * AGENTS} socket deliveries`,
      ].join('\n'),
    );
    if (tracer) {
      const steadyMids = res.sentAt.slice(-RATE * STEADY_SECONDS).map(([mid]) => mid);
      console.log(tracer.report(steadyMids, sentAt, new Map(res.firstSeenAt), res.timeOrigin));
      console.log(tracer.ackReport(burstMids, sentAt, ackedAt, res.timeOrigin));
    }
    // Let the server finish its disconnect bookkeeping (and the last processed marks) before the pool closes.
    await new Promise((r) => setTimeout(r, 500));
    await inboundQueue(app.ctx).drained();
    // The connection behaviours of the last messages (background work) may trail far behind on a loaded machine.
    await app.ctx.background.drain();
    await app.close();
    await pool.end();

    // The reference, on the same server, after our run (not beside it).
    await printPgbenchReference(database.adminConnectionString, PGBENCH_SECONDS, { label: 'processed messages/s', perSecond: processed }, load);
  } finally {
    await graph.close();
    await database.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
