// Inbound throughput and webhook-to-socket latency (a benchmark, not a test).
// Starts the API in this process (embedded PostgreSQL, or the server at DATABASE_URL),
// connects BENCH_AGENTS agent sockets, posts signed Meta webhook bursts through the same
// path as `npm run simulate`, and reports messages/s and p50/p95/p99 latency.
// Everything stays on loopback; Graph calls (profile lookups) go to the local fake.
//   npm run bench:ingest
//   BENCH_MESSAGES=5000 BENCH_CONCURRENCY=100 BENCH_AGENTS=50 npm run bench:ingest
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, freemem, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { parseConfig } from '../apps/server/src/config.js';
import { createDb, createPool } from '../apps/server/src/db/client.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../apps/server/src/db/embedded.js';
import { migrateAndSeed } from '../apps/server/src/db/migrate.js';
import { hashPassword } from '../apps/server/src/db/passwords.js';
import { companies, companySettings, plans, users, whatsapps } from '../apps/server/src/db/schema/index.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { generateConnectionToken } from '../apps/server/src/modules/whatsapp/service.js';
import { postSimulated } from '../apps/server/tools/simulate.js';
import { FakeGraph } from '../apps/server/test/fakes/graph-server.js';
import { COMPANY_SETTING_DEFAULTS } from '@balcao/contracts';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const AGENTS = num('BENCH_AGENTS', 20);
const MESSAGES = num('BENCH_MESSAGES', 2000);
const CONCURRENCY = num('BENCH_CONCURRENCY', 50);
const SENDERS = num('BENCH_SENDERS', 200);
const WARMUP = num('BENCH_WARMUP', 100);
const SECRET = 'bench-app-secret';
const PAGE = '1000001';
const PASSWORD = 'bench-password-1';

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'balcao-bench-'));
  let embedded: EmbeddedPostgres | undefined;
  let connectionString = process.env.DATABASE_URL;
  if (!connectionString) {
    embedded = await startEmbeddedPostgres({ dataDir, password: randomBytes(12).toString('hex'), database: 'balcao_bench' });
    connectionString = embedded.connectionString();
  }
  const graph = await FakeGraph.start();
  const sockets: Socket[] = [];
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

    const firstSeen = new Map<string, number>();
    let deliveries = 0;
    for (const agent of agents) {
      const res = await fetch(`${api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: agent.email, password: PASSWORD }) });
      const { token } = (await res.json()) as { token: string };
      const socket = io(`${api}/${company!.id}`, { query: { userId: String(agent.id), token: `Bearer ${token}` }, transports: ['websocket'], reconnection: false });
      socket.on(`company-${company!.id}-appMessage`, (p: { action: string; message: { wid: string } }) => {
        if (p.action !== 'create') return;
        deliveries += 1;
        if (!firstSeen.has(p.message.wid)) firstSeen.set(p.message.wid, performance.now());
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      sockets.push(socket);
    }

    const run = async (count: number) => {
      const sentAt = new Map<string, number>();
      let next = 0;
      let refused = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < count) {
            const i = next++;
            const t0 = performance.now();
            const mid = `m_bench_${randomBytes(10).toString('hex')}`;
            sentAt.set(mid, t0);
            const { status } = await postSimulated(api, SECRET, { accountId: PAGE, from: `9${String(i % SENDERS).padStart(6, '0')}`, text: `bench message ${i}`, mid });
            if (status !== 200) refused++;
          }
        }),
      );
      const postedMs = performance.now() - started;
      const deadline = Date.now() + 180_000;
      while ([...sentAt.keys()].some((mid) => !firstSeen.has(mid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const lastSeen = Math.max(...[...sentAt.keys()].map((mid) => firstSeen.get(mid) ?? NaN));
      const latencies = [...sentAt].map(([mid, t0]) => (firstSeen.get(mid) ?? NaN) - t0).filter(Number.isFinite).sort((a, b) => a - b);
      return { postedMs, totalMs: lastSeen - started, latencies, refused, missing: count - latencies.length };
    };

    await run(WARMUP);
    deliveries = 0;
    const r = await run(MESSAGES);
    const fanout = deliveries / (MESSAGES * AGENTS);
    console.log(
      [
        `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM (${(freemem() / 2 ** 30).toFixed(0)} GiB free), Node ${process.version}`,
        `database: ${embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}; ${AGENTS} agent sockets; ${MESSAGES} messages from ${SENDERS} customers, ${CONCURRENCY} concurrent webhook posts`,
        `webhook acks: ${(MESSAGES / (r.postedMs / 1000)).toFixed(0)} req/s; refused ${r.refused}; never emitted ${r.missing}`,
        `throughput (post → every message emitted): ${(MESSAGES / (r.totalMs / 1000)).toFixed(0)} messages/s over ${(r.totalMs / 1000).toFixed(1)} s`,
        `webhook-to-socket latency: p50 ${percentile(r.latencies, 0.5).toFixed(0)} ms, p95 ${percentile(r.latencies, 0.95).toFixed(0)} ms, p99 ${percentile(r.latencies, 0.99).toFixed(0)} ms`,
        `fan-out: ${(fanout * 100).toFixed(1)}% of ${MESSAGES * AGENTS} socket deliveries`,
      ].join('\n'),
    );
    for (const s of sockets) s.disconnect();
    // Let the server finish its disconnect bookkeeping before the pool closes.
    await new Promise((r) => setTimeout(r, 500));
    await app.close();
    await pool.end();
  } finally {
    await graph.close();
    if (embedded) await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
