// Fan-out of one inbound message to many agent sockets (a benchmark, not a test).
// One company, BENCH_AGENTS agent sockets (default 1,000): three in four have allTicket and
// may see the new conversations (a Page without queues), the rest are plain users who may
// not. Messages are posted one at a time as signed Meta webhooks; for each we time the
// post until EVERY allowed socket has its `appMessage` create, and check that no plain
// socket got one. Reference, measured in the same run: one raw socket.io broadcast of a
// payload of the same size to the same sockets (the floor for any fan-out on this machine).
// Each message's time is broken down (POST → committed → presented → both broadcasts written →
// last socket), with the CPU of the server, the clients and PostgreSQL per message.
//   npm run bench:fanout
//   BENCH_CLIENT_PROCESS=0 npm run bench:fanout   (the sockets in the server's process, as before 2026-11-28)
//   BENCH_AGENTS=200 BENCH_MESSAGES=50 npm run bench:fanout
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { COMPANY_SETTING_DEFAULTS, type AppMessageEventPayload } from '@balcao/contracts';
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
import type { EventBus } from '../apps/server/src/events/bus.js';
import type { Realtime } from '../apps/server/src/realtime/server.js';
import type { ContactMask } from '../apps/server/src/modules/contacts/lgpd.js';
import type { DomainEvent } from '../apps/server/src/events/types.js';
import { ingestTrace, type IngestTrace } from '../apps/server/src/modules/conversations/ingest.js';
import { cpuMeter, processCpuMs } from './cpu.js';
import { connectClients, connectClientsInChild, type FanoutClients, type Reached } from './fanout-clients.js';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 1000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);
/**
 * The agent sockets run in a child process (bench/fanout-clients.ts), so the server's thread is the server's: in its
 * process, decoding 750 sockets' two payloads took more CPU than the server's whole part. 0: in the server's process.
 */
const CLIENT_PROCESS = process.env.BENCH_CLIENT_PROCESS !== '0';
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

const now = () => performance.timeOrigin + performance.now();

/** One timed message (or reference broadcast): timeOrigin-based instants, comparable with the child's. */
interface Row extends Partial<Reached> {
  t0: number;
  acked?: number;
  /** Its transaction committed (the pipeline's `committed` trace). */
  committed?: number;
  /** Presented: the bus got its `ticket.updated` + `message.created`. */
  presented?: number;
  /** Its create (and ticket update) written to every socket: at the end of the publication's turn. */
  broadcast?: number;
  /** Every bus subscriber done with it (the socket writes, then webhooks and the like). */
  published?: number;
  first: number;
  last: number;
}

/**
 * Where the server's part of a message goes: the pipeline's trace channel gives the commit, the
 * bus's `publish` (wrapped here, on this app only) the presentation and the end of its subscribers,
 * and `emitMasked` the moment the create (with its ticket update) was written to every socket (the end of its publication).
 */
function traceServer(events: EventBus, rt: Realtime) {
  const rows = new Map<string, Partial<Row>>();
  const row = (key: string) => rows.get(key) ?? rows.set(key, {}).get(key)!;
  const onTrace = (m: unknown) => {
    const t = m as IngestTrace;
    if (t.phase !== 'committed') return;
    for (const p of t.payloads) row((p as { entry: { messaging: { message: { text: string } }[] }[] }).entry[0]!.messaging[0]!.message.text).committed = t.at;
  };
  subscribe(ingestTrace.name, onTrace);
  const publish = events.publish.bind(events);
  events.publish = async (...list: DomainEvent[]) => {
    const created = list.find((e) => e.type === 'message.created');
    if (created) row(created.message.body).presented = now();
    await publish(...list);
    if (created) row(created.message.body).published = now();
  };
  // emitMasked's own signature, without its generic event name.
  type EmitMasked = (companyId: number, rooms: string[], name: string, build: (mask: ContactMask) => unknown, hides?: boolean) => Promise<void>;
  const masked = rt as unknown as { emitMasked: EmitMasked };
  const emit = masked.emitMasked.bind(rt);
  masked.emitMasked = async (companyId, rooms, name, build, hides) => {
    let body: string | undefined;
    const seen = (mask: ContactMask) => {
      const payload = build(mask) as AppMessageEventPayload;
      if (name === 'appMessage' && payload.action === 'create') body = payload.message.body;
      return payload;
    };
    await emit(companyId, rooms, name, seen, hides);
    // Written at the end of the publication (realtime/together.ts), whose tick was registered first.
    if (body !== undefined) process.nextTick((b: string) => (row(b).broadcast = now()), body);
  };
  return {
    take(key: string): Partial<Row> {
      const r = rows.get(key) ?? {};
      rows.delete(key);
      return r;
    },
    stop() {
      unsubscribe(ingestTrace.name, onTrace);
      events.publish = publish;
      masked.emitMasked = emit;
    },
  };
}

/** CPU of the server process, the clients' child (if any) and PostgreSQL, summed over the timed phases. */
class Spent {
  private meter?: ReturnType<typeof cpuMeter>;
  private child0 = 0;
  readonly sum = { nodeMs: 0, postgresMs: 0, clientsMs: 0 };
  constructor(
    private readonly postmasterPid: number | undefined,
    private readonly clients: FanoutClients,
  ) {}
  start(): void {
    this.meter = cpuMeter(this.postmasterPid);
    if (this.clients.pid) this.child0 = processCpuMs(this.clients.pid);
  }
  stop(): void {
    const spent = this.meter!.stop();
    this.sum.nodeMs += spent.nodeMs;
    this.sum.postgresMs += spent.postgresMs ?? 0;
    if (this.clients.pid) this.sum.clientsMs += processCpuMs(this.clients.pid) - this.child0;
  }
  text(count: number, unit: string): string {
    const each = (ms: number) => (ms / Math.max(count, 1)).toFixed(2);
    const where = this.clients.pid ? `server process ${each(this.sum.nodeMs)} ms + clients' process ${each(this.sum.clientsMs)} ms` : `server and clients' process ${each(this.sum.nodeMs)} ms`;
    return `CPU per ${unit}: ${where} + PostgreSQL ${each(this.sum.postgresMs)} ms`;
  }
}

async function main(): Promise<void> {
  const database = await benchDatabase('fanout');
  const { dataDir, connectionString } = database;
  const graph = await FakeGraph.start();
  // Profile pictures point at the fake too (it has none): no lookups of the real CDN from a benchmark.
  graph.profilePic = `${graph.origin}/bench-picture.jpg`;
  let clients: FanoutClients | undefined;
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

    const input = {
      api,
      companyId,
      agents: await Promise.all(
        agents.map(async (a) => ({ id: a.id, allowed: a.allTicket === 'enabled', token: await signAccessToken(secrets, { id: a.id, profile: 'user', companyId, tv: a.tokenVersion }) })),
      ),
    };
    const reached = new Map<string, (r: Reached) => void>();
    const onReached = (r: Reached) => reached.get(r.key)?.(r);
    const until = (key: string) => new Promise<Reached>((resolve) => reached.set(key, resolve));
    clients = CLIENT_PROCESS ? await connectClientsInChild(input, onReached) : await connectClients(input, onReached);
    const allowedCount = input.agents.filter((a) => a.allowed).length;
    // Let the connect-time bookkeeping (online flags and their user events) settle.
    await new Promise((r) => setTimeout(r, 3000));

    const trace = traceServer(app.ctx.events, app.ctx.realtime);
    const ours: Row[] = [];
    const reference: Row[] = [];
    const cpu = { ours: new Spent(database.postmasterPid, clients), reference: new Spent(database.postmasterPid, clients) };
    const loadBefore = loadavg();
    for (let i = 0; i < MESSAGES + 5; i++) {
      const body = `fanout ${i} ${randomBytes(4).toString('hex')}`;
      const arrived = until(body);
      const counted = i >= 5;
      if (counted) cpu.ours.start();
      const t0 = now();
      const { status } = await postSimulated(api, SECRET, { accountId: PAGE, from: `8${String(i % CUSTOMERS).padStart(6, '0')}`, text: body });
      const acked = now();
      if (status !== 200) throw new Error(`webhook answered ${status}`);
      const r = await arrived;
      if (counted) {
        cpu.ours.stop();
        ours.push({ t0, acked, ...trace.take(body), ...r });
      }

      const key = `reference ${i}`;
      const refArrived = until(key);
      if (counted) cpu.reference.start();
      const r0 = now();
      app.ctx.realtime.io.of(`/${companyId}`).emit('bench-reference', { key, pad: REFERENCE_PAD });
      const sent = now();
      const rr = await refArrived;
      if (counted) {
        cpu.reference.stop();
        reference.push({ t0: r0, broadcast: sent, ...rr });
      }
    }
    trace.stop();
    const leaked = await clients.leaked();

    const total = summary(ours.map((x) => x.last - x.t0));
    const ref = summary(reference.map((x) => x.last - x.t0));
    const [l1, l5] = loadBefore;
    const [a1, a5] = loadavg();
    const span = (rows: Row[], from: keyof Row, to: keyof Row) => summary(rows.map((x) => Number(x[to]) - Number(x[from]))).text;
    console.log(
      [
        `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${l1!.toFixed(2)} / ${l5!.toFixed(2)} → ${a1!.toFixed(2)} / ${a5!.toFixed(2)} (1 / 5 min)`,
        `${AGENTS} agent sockets of one company (${allowedCount} may see the conversations) in ${CLIENT_PROCESS ? 'a child process' : 'the server\'s process'}; ${MESSAGES} messages, one at a time`,
        `webhook → every allowed socket: ${total.text}; ${(1000 / (ours.reduce((a, x) => a + x.last - x.t0, 0) / ours.length)).toFixed(1)} msg/s`,
        `  POST → acknowledged:            ${span(ours, 't0', 'acked')}`,
        `  POST → committed:               ${span(ours, 't0', 'committed')}`,
        `  committed → presented:          ${span(ours, 'committed', 'presented')}`,
        `  presented → first socket:       ${span(ours, 'presented', 'first')}`,
        `  presented → written to all:     ${span(ours, 'presented', 'broadcast')}  (both events: payloads built, encoded, written to every socket)`,
        `  presented → bus subscribers done: ${span(ours, 'presented', 'published')}`,
        `  written to all → last allowed socket: ${span(ours, 'broadcast', 'last')}`,
        `  ${cpu.ours.text(ours.length, 'message')}`,
        `reference (one raw socket.io broadcast to all ${AGENTS}): ${ref.text}`,
        `  emit → first socket:            ${span(reference, 't0', 'first')}`,
        `  emit → written to all:          ${span(reference, 't0', 'broadcast')}`,
        `  written to all → last socket:   ${span(reference, 'broadcast', 'last')}`,
        `  ${cpu.reference.text(reference.length, 'broadcast')}`,
        `ratio ours / reference: p50 ${(total.p50 / ref.p50).toFixed(1)}×, p99 ${(total.p99 / ref.p99).toFixed(1)}×`,
        `creates delivered to sockets not allowed to see them: ${leaked}`,
      ].join('\n'),
    );
    await clients.close();
    clients = undefined;
    // The server marks 1,000 users offline as their sockets go: let that finish before closing (a loaded machine took longer than the close's timeout).
    const nsp = app.ctx.realtime.io.of(`/${companyId}`);
    while (nsp.sockets.size > 0) await new Promise((r) => setTimeout(r, 200));
    await app.close().catch((err: unknown) => console.warn(`closing the server: ${(err as Error).message}`));
    await pool.end();
  } finally {
    await clients?.close();
    await graph.close();
    await database.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
