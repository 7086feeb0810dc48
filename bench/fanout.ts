// Fan-out of one inbound message to many agent sockets (a benchmark, not a test).
// One company, BENCH_AGENTS agent sockets (default 1,000): three in four have allTicket and
// may see the new conversations (a Page without queues), the rest are plain users who may
// not. Messages are posted one at a time as signed Meta webhooks; for each we time the
// post until EVERY allowed socket has its `appMessage` create, and check that no plain
// socket got one. Reference, measured in the same run: one raw socket.io broadcast of a
// payload of the same size to the same sockets (the floor for any fan-out on this machine).
//   npm run bench:fanout
//   BENCH_AGENTS=200 BENCH_MESSAGES=50 npm run bench:fanout
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { io, type Socket } from 'socket.io-client';
import { COMPANY_SETTING_DEFAULTS } from '@balcao/contracts';
import { parseConfig } from '../apps/server/src/config.js';
import { createDb, createPool } from '../apps/server/src/db/client.js';
import { benchDatabase } from './database.js';
import { migrateAndSeed } from '../apps/server/src/db/migrate.js';
import { companies, companySettings, plans, users, whatsapps } from '../apps/server/src/db/schema/index.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { signAccessToken } from '../apps/server/src/modules/auth/tokens.js';
import { generateConnectionToken } from '../apps/server/src/modules/whatsapp/service.js';
import { postSimulated } from '../apps/server/tools/simulate.js';
import { FakeGraph } from '../apps/server/test/fakes/graph-server.js';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 1000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);
const CUSTOMERS = 10;
const SECRET = 'bench-app-secret';
const PAGE = '1000002';
/** About the size of an `appMessage` create with its ticket and contact. */
const REFERENCE_PAD = 'x'.repeat(2000);

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: pct(s, 0.5), p99: pct(s, 0.99), text: `p50 ${pct(s, 0.5).toFixed(1)} ms, p99 ${pct(s, 0.99).toFixed(1)} ms` };
};

/** Resolves when `count` sockets have reported `key`. */
class Arrivals {
  private readonly seen = new Map<string, { n: number; done: () => void }>();
  expect(key: string, count: number): Promise<void> {
    return new Promise((done) => this.seen.set(key, { n: count, done }));
  }
  arrive(key: string): void {
    const entry = this.seen.get(key);
    if (!entry) return;
    entry.n -= 1;
    if (entry.n === 0) entry.done();
  }
}

async function main(): Promise<void> {
  const database = await benchDatabase('fanout');
  const { dataDir, connectionString } = database;
  const graph = await FakeGraph.start();
  // Profile pictures point at the fake too (it has none): no lookups of the real CDN from a benchmark.
  graph.profilePic = `${graph.origin}/bench-picture.jpg`;
  const sockets: Socket[] = [];
  try {
    await migrateAndSeed(connectionString, { adminEmail: 'bench@balcao.local', adminPassword: 'bench-password-1' });
    const config = parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', FACEBOOK_APP_SECRET: SECRET, GRAPH_API_URL: graph.url, RATE_LIMIT_MAX: '10000000' });
    const secrets = { jwtSecret: randomBytes(32).toString('hex'), jwtRefreshSecret: randomBytes(32).toString('hex') };
    const pool = createPool(connectionString, 20);
    const db = createDb(pool);
    const app = await buildApp({ config, secrets, pool });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const api = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    const [plan] = await db.insert(plans).values({ name: `Fanout ${Date.now()}`, users: AGENTS + 1, connections: 5 }).returning();
    const [company] = await db.insert(companies).values({ name: `Fanout ${Date.now()}`, planId: plan!.id, dueDate: '2999-01-01' }).returning();
    const companyId = company!.id;
    await db.insert(companySettings).values({ companyId, ...COMPANY_SETTING_DEFAULTS });
    const agents = await db
      .insert(users)
      .values(
        Array.from({ length: AGENTS }, (_, i) => ({
          companyId,
          name: `Agent ${i}`,
          email: `fanout-${i}-${Date.now()}@bench.local`,
          passwordHash: 'unused: tokens are signed directly',
          allTicket: i % 4 === 3 ? ('disabled' as const) : ('enabled' as const),
        })),
      )
      .returning();
    await db.insert(whatsapps).values({ companyId, name: 'Fanout Page', channel: 'facebook', status: 'CONNECTED', token: generateConnectionToken(), facebookPageId: PAGE, facebookPageToken: 'bench-page-token', isDefault: true });

    const arrivals = new Arrivals();
    let leaked = 0;
    for (const agent of agents) {
      const token = await signAccessToken(secrets, { id: agent.id, profile: 'user', companyId, tv: agent.tokenVersion });
      const socket = io(`${api}/${companyId}`, { query: { userId: String(agent.id), token: `Bearer ${token}` }, transports: ['websocket'], reconnection: false });
      const allowed = agent.allTicket === 'enabled';
      socket.on(`company-${companyId}-appMessage`, (p: { action: string; message: { body: string } }) => {
        if (p.action !== 'create') return;
        if (allowed) arrivals.arrive(p.message.body);
        else leaked += 1;
      });
      socket.on('bench-reference', (p: { key: string }) => arrivals.arrive(p.key));
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      sockets.push(socket);
    }
    const allowedCount = agents.filter((a) => a.allTicket === 'enabled').length;
    // Let the connect-time bookkeeping (online flags and their user events) settle.
    await new Promise((r) => setTimeout(r, 3000));

    const ours: number[] = [];
    const reference: number[] = [];
    for (let i = 0; i < MESSAGES + 5; i++) {
      const body = `fanout ${i} ${randomBytes(4).toString('hex')}`;
      const reached = arrivals.expect(body, allowedCount);
      const t0 = performance.now();
      const { status } = await postSimulated(api, SECRET, { accountId: PAGE, from: `8${String(i % CUSTOMERS).padStart(6, '0')}`, text: body });
      if (status !== 200) throw new Error(`webhook answered ${status}`);
      await reached;
      if (i >= 5) ours.push(performance.now() - t0);

      const key = `reference ${i}`;
      const refReached = arrivals.expect(key, sockets.length);
      const r0 = performance.now();
      app.ctx.realtime.io.of(`/${companyId}`).emit('bench-reference', { key, pad: REFERENCE_PAD });
      await refReached;
      if (i >= 5) reference.push(performance.now() - r0);
    }

    const o = summary(ours);
    const r = summary(reference);
    const [l1, l5] = loadavg();
    console.log(
      [
        `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${l1!.toFixed(2)} / ${l5!.toFixed(2)} (1 / 5 min)`,
        `${AGENTS} agent sockets of one company (${allowedCount} may see the conversations); ${MESSAGES} messages, one at a time`,
        `webhook → every allowed socket: ${o.text}; ${(1000 / (ours.reduce((a, b) => a + b, 0) / ours.length)).toFixed(1)} msg/s`,
        `reference (one raw socket.io broadcast to all ${sockets.length}): ${r.text}`,
        `ratio ours / reference: p50 ${(o.p50 / r.p50).toFixed(1)}×, p99 ${(o.p99 / r.p99).toFixed(1)}×`,
        `creates delivered to sockets not allowed to see them: ${leaked}`,
      ].join('\n'),
    );
    for (const s of sockets) s.disconnect();
    await app.close();
    await pool.end();
  } finally {
    for (const s of sockets) s.close();
    await graph.close();
    await database.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
