// POST /api/messages/send under load (a benchmark, not a test; docs/BENCHMARKS.md).
// Starts the API in this process on the embedded PostgreSQL (or the server at DATABASE_URL)
// with a Messenger Page whose sends go to the local fake Graph, then posts BENCH_REQUESTS
// texts with BENCH_CONCURRENCY in flight (app.inject: token lookup, plan flag, contact and
// ticket find-or-create, outbox row, events), to BENCH_CONTACTS distinct contacts. Reports
// requests/s and latency percentiles, then pgbench -N against the same server as the reference.
// BENCH_CLIENT_PROCESS=1: the posts (over HTTP) and the fake Graph run in a child process.
// BENCH_RATE=200: the posts start 200 a second on a fixed schedule (open loop), each timed from
// its scheduled start: the aim's "sustains 200 req/s with p95 ≤ 50 ms" as a client at that rate sees it.
// BENCH_BURSTS=1: the half-seconds whose p95 passed 50 ms, with the GC, event-loop lag, pool queue and autovacuum then.
// BENCH_POOL: the API's PostgreSQL connections (10, as main.ts).
//   npm run bench:messages-api
//   BENCH_CLIENT_PROCESS=1 BENCH_RATE=200 npm run bench:messages-api
import { COMPANY_SETTING_DEFAULTS } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { parseConfig } from '../apps/server/src/config.js';
import { createDb, createPool } from '../apps/server/src/db/client.js';
import { migrateAndSeed } from '../apps/server/src/db/migrate.js';
import { companies, companySettings, plans } from '../apps/server/src/db/schema/index.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { createConnection } from '../apps/server/test/connections.js';
import { FakeGraph } from '../apps/server/test/fakes/graph-server.js';
import { watchBursts, type Bursts } from './messages-api-bursts.js';
import { payloadOf, runPosts, startChildClients } from './messages-api-client.js';
import { cpuMeter, perUnit } from './cpu.js';
import { benchDatabase } from './database.js';
import { runPgbench } from './pgbench.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const REQUESTS = num('BENCH_REQUESTS', 2000);
const CONCURRENCY = num('BENCH_CONCURRENCY', 10);
/** Requests per second on a fixed schedule (open loop: the aim's "sustains 200 req/s"); 0 keeps BENCH_CONCURRENCY in flight. */
const RATE = num('BENCH_RATE', 0);
const CONTACTS = num('BENCH_CONTACTS', 500);
const WARMUP = num('BENCH_WARMUP', 100);
/** 1: the posts and the fake Graph run in a child process over HTTP (bench/messages-api-client.ts), not on the server's thread. */
const CLIENT_PROCESS = process.env.BENCH_CLIENT_PROCESS === '1';
const BURSTS = process.env.BENCH_BURSTS === '1';
/** The API's PostgreSQL connections (main.ts's default is 10). */
const POOL = num('BENCH_POOL', 10);
/** The aim's p95 (issue 17): BENCH_BURSTS lists the windows past it. */
const AIM_P95_MS = 50;

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');

async function main(): Promise<void> {
  const child = CLIENT_PROCESS ? await startChildClients() : undefined;
  const graph = child ? undefined : await FakeGraph.start();
  const database = await benchDatabase('messages-api');
  await migrateAndSeed(database.connectionString, { adminEmail: 'bench@balcao.local', adminPassword: 'bench-password-1' });
  const pool = createPool(database.connectionString, POOL);
  const monitor = BURSTS ? createPool(database.connectionString, 1) : undefined;
  const config = parseConfig({
    DATA_DIR: database.dataDir,
    LOG_LEVEL: 'silent',
    GRAPH_API_URL: child?.graphUrl ?? graph!.url,
    FACEBOOK_APP_ID: 'bench-app',
    FACEBOOK_APP_SECRET: 'bench-secret',
    MESSAGES_API_MAX_PER_MINUTE: '10000000',
  });
  const secrets = { jwtSecret: randomBytes(32).toString('hex'), jwtRefreshSecret: randomBytes(32).toString('hex') };
  const db = createDb(pool);
  const app = await buildApp({ config, secrets, pool });
  if (child) await app.listen({ port: 0, host: '127.0.0.1' });
  else await app.ready();
  try {
    const [plan] = await db.insert(plans).values({ name: 'Bench messages API plan', useExternalApi: true }).returning();
    const [company] = await db.insert(companies).values({ name: 'Bench messages API', planId: plan!.id, dueDate: '2999-01-01' }).returning();
    await db.insert(companySettings).values({ companyId: company!.id, ...COMPANY_SETTING_DEFAULTS });
    const { token } = await createConnection(db, company!.id);
    const posts = { requests: REQUESTS, concurrency: CONCURRENCY, rate: RATE, contacts: CONTACTS, warmup: WARMUP };

    let cpu: ReturnType<typeof cpuMeter> | undefined;
    let bursts: Bursts | undefined;
    const started = () => {
      console.log(`load average at start: ${load()}`);
      cpu = cpuMeter(database.postmasterPid);
      if (monitor) bursts = watchBursts(pool, monitor);
    };
    const { seconds, times, failed, timeline } = child
      ? await child.run({ ...posts, api: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, token }, started)
      : await runPosts(
          posts,
          async (i) => (await app.inject({ method: 'POST', url: '/api/messages/send', headers: { authorization: `Bearer ${token}` }, payload: payloadOf(i, CONTACTS) })).statusCode,
          started,
        );
    // The channel sends the answers started may still run: counted until they are done, as part of a request's cost.
    await app.ctx.background.drain();
    const spent = cpu!.stop();
    const rps = REQUESTS / seconds;
    const where = child ? 'HTTP from a child process (which also runs the fake Graph)' : 'app.inject in this process';
    const pace = RATE > 0 ? `started at ${RATE} req/s, each timed from its scheduled start` : `${CONCURRENCY} in flight`;
    console.log(`\nPOST /api/messages/send, ${REQUESTS} requests, ${pace}, ${CONTACTS} contacts, ${where} (load ${load()}):`);
    console.log(`  ${rps.toFixed(0)} req/s, ${failed} failed; p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms`);
    console.log(`  ${perUnit(spent, REQUESTS, 'request')} (the send each request starts included${child ? '' : ', and the client and fake Graph'})`);
    bursts?.report(timeline, AIM_P95_MS);
    // The sends the requests started, as the outbox recorded them (a bench whose sends failed would measure less work).
    const outbox = await db.execute<{ send_status: string | null; n: number }>(sql`SELECT send_status, count(*)::int AS n FROM messages WHERE company_id = ${company!.id} GROUP BY 1 ORDER BY 1`);
    console.log(`  outbox: ${outbox.rows.map((r) => `${r.n} ${r.send_status ?? 'none'}`).join(', ')}`);
    const reference = await runPgbench(database.adminConnectionString, 8, 15);
    console.log(reference ? `pgbench -N (8 clients, 15 s): ${reference.tps.toFixed(0)} tps; API req/s ÷ pgbench tps = ${(rps / reference.tps).toFixed(3)}, load ${load()}` : 'pgbench: NOT FOUND');
  } finally {
    await app.close();
    await monitor?.end();
    await pool.end();
    await database.stop();
    await graph?.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
