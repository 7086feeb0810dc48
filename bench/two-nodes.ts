// Two API nodes vs one (a benchmark, not a test). Two real node processes
// (apps/server/test/node-server.ts: main's boot with pg-boss, Redis adapter, leases) on one
// database and one throw-away redis-server; one admin socket on each node.
// 1. Cross-node delivery: messages posted one at a time to node A as signed Meta webhooks;
//    for each, the arrival of its `appMessage` create on B's socket minus on A's socket is
//    what crossing Redis adds.
// 2. Ingest: BENCH_MESSAGES webhooks with BENCH_CONCURRENCY in flight, all to node A (one
//    node ingesting), then spread over A and B (two nodes); throughput until the last
//    message reached the socket.
// For each ingest phase, until the connection behaviours of its messages have run (they trail
// the socket events), the CPU per message of each process: node A, node B, redis-server,
// PostgreSQL (embedded only) and this bench (the client and its two sockets), from /proc; and
// PostgreSQL's commits and row writes per message. Before them, each process's idle CPU per second.
// BENCH_PROFILE_DIR=dir: a V8 CPU profile of each node per phase; BENCH_LOG_STATEMENTS=1 (with
// BENCH_DATA_DIR to keep the cluster): every statement of each phase in the server's log, and
// their counts per phase and process printed at the end (bench/statement-log.ts).
//   npm run bench:two-nodes
//   BENCH_MESSAGES=400 BENCH_CONCURRENCY=20 BENCH_PROBES=100 BENCH_ROUNDS=2 npm run bench:two-nodes
import { COMPANY_SETTING_DEFAULTS } from '@balcao/contracts';
import { execSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { createDb, createPool } from '../apps/server/src/db/client.js';
import { freePort } from '../apps/server/src/db/embedded.js';
import { migrateAndSeed } from '../apps/server/src/db/migrate.js';
import { companies, companySettings, plans, users, whatsapps } from '../apps/server/src/db/schema/index.js';
import { signAccessToken } from '../apps/server/src/modules/auth/tokens.js';
import { generateConnectionToken } from '../apps/server/src/modules/whatsapp/service.js';
import { postSimulated } from '../apps/server/tools/simulate.js';
import { FakeGraph } from '../apps/server/test/fakes/graph-server.js';
import { startRedisServer } from '../apps/server/test/redis-server.js';
import { postgresCpuMs, processCpuMs } from './cpu.js';
import { benchDatabase } from './database.js';
import { statementCounts } from './statement-log.js';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 600);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const PROBES = Number(process.env.BENCH_PROBES ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
/** A V8 CPU profile of each node during each ingest phase is written there. */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
/** Embedded only: every statement of each phase to the server log (what a node does per message, counted from it). */
const LOG_STATEMENTS = process.env.BENCH_LOG_STATEMENTS === '1';
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);
const SECRET = 'bench-app-secret';
const PAGE = '1000003';
/** node-server.ts signs with these. */
const SECRETS = { jwtSecret: 'nodes-access-secret-'.padEnd(48, 'x'), jwtRefreshSecret: 'nodes-refresh-secret-'.padEnd(48, 'y') };
const SERVER_DIR = resolve(import.meta.dirname, '../apps/server');

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
const selfCpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

async function startNode(env: Record<string, string>): Promise<{ proc: ChildProcess; api: string }> {
  const port = await freePort();
  const proc = fork('test/node-server.ts', [], { cwd: SERVER_DIR, execArgv: ['--import', 'tsx'], env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((ok, fail) => {
    proc.on('message', (m: { ready?: boolean }) => m.ready && ok());
    proc.once('exit', (code) => fail(new Error(`node exited (${code})`)));
  });
  return { proc, api: `http://127.0.0.1:${port}` };
}

async function main(): Promise<void> {
  const startLoad = loadavg().map((x) => x.toFixed(2)).join(' / ');
  const database = await benchDatabase('two-nodes');
  const redis = await startRedisServer();
  const graph = await FakeGraph.start();
  // Profile pictures point at the fake too (it has none), as in bench/ingest.ts: no lookups of the real CDN from a benchmark.
  graph.profilePic = `${graph.origin}/bench-picture.jpg`;
  const nodes: ChildProcess[] = [];
  const sockets: Socket[] = [];
  try {
    const { connectionString, dataDir } = database;
    await migrateAndSeed(connectionString, { adminEmail: 'bench@balcao.local', adminPassword: 'bench-password-1' });
    const pool = createPool(connectionString, 2);
    const db = createDb(pool);
    const [plan] = await db.insert(plans).values({ name: `Nodes ${Date.now()}`, users: 5, connections: 5 }).returning();
    const [company] = await db.insert(companies).values({ name: `Nodes ${Date.now()}`, planId: plan!.id, dueDate: '2999-01-01' }).returning();
    const companyId = company!.id;
    await db.insert(companySettings).values({ companyId, ...COMPANY_SETTING_DEFAULTS });
    const [admin] = await db.insert(users).values({ companyId, name: 'Admin', email: `nodes-${Date.now()}@bench.local`, passwordHash: 'unused', profile: 'admin' }).returning();
    await db.insert(whatsapps).values({ companyId, name: 'Page', channel: 'facebook', status: 'CONNECTED', token: generateConnectionToken(), facebookPageId: PAGE, facebookPageToken: 'bench-page-token', isDefault: true });
    await pool.end();

    const env = { DATABASE_URL: connectionString, REDIS_URL: redis.url, DATA_DIR: dataDir, FACEBOOK_APP_SECRET: SECRET, GRAPH_API_URL: graph.url, RATE_LIMIT_MAX: '10000000' };
    // Named in pg_stat_activity and in the statement log.
    const a = await startNode({ ...env, PGAPPNAME: 'node-A' });
    nodes.push(a.proc);
    const b = await startNode({ ...env, PGAPPNAME: 'node-B' });
    nodes.push(b.proc);

    const token = await signAccessToken(SECRETS, { id: admin!.id, profile: 'admin', companyId, tv: admin!.tokenVersion });
    const arrivals = { A: new Map<string, number>(), B: new Map<string, number>() };
    const waiters = new Map<string, () => void>();
    for (const [name, node] of [['A', a], ['B', b]] as const) {
      const socket = io(`${node.api}/${companyId}`, { query: { userId: String(admin!.id), token: `Bearer ${token}` }, transports: ['websocket'], reconnection: false });
      socket.on(`company-${companyId}-appMessage`, (p: { action: string; message: { body: string } }) => {
        if (p.action !== 'create') return;
        arrivals[name].set(p.message.body, performance.now());
        if (arrivals.A.has(p.message.body) && arrivals.B.has(p.message.body)) waiters.get(p.message.body)?.();
      });
      await new Promise<void>((ok, fail) => {
        socket.once('connect', ok);
        socket.once('connect_error', fail);
      });
      sockets.push(socket);
    }
    await new Promise((r) => setTimeout(r, 2000));
    const bothHeard = (body: string) => new Promise<void>((done) => waiters.set(body, done));
    const post = async (api: string, body: string, i: number) => {
      const { status } = await postSimulated(api, SECRET, { accountId: PAGE, from: `7${String(i % 50).padStart(6, '0')}`, text: body });
      if (status !== 200) throw new Error(`webhook answered ${status}`);
    };

    // 1. Cross-node delivery, one message at a time.
    const added: number[] = [];
    const local: number[] = [];
    for (let i = 0; i < PROBES + 10; i++) {
      const body = `probe ${i} ${randomBytes(3).toString('hex')}`;
      const heard = bothHeard(body);
      const t0 = performance.now();
      await post(a.api, body, i);
      await heard;
      if (i < 10) continue;
      local.push(arrivals.A.get(body)! - t0);
      added.push(arrivals.B.get(body)! - arrivals.A.get(body)!);
    }

    // 2. Ingest: one node, then two (BENCH_ROUNDS times, alternating), after a measure of what each process spends idle.
    const processes: [string, () => number][] = [
      ['A', () => processCpuMs(a.proc.pid!)],
      ['B', () => processCpuMs(b.proc.pid!)],
      ['Redis', () => processCpuMs(redis.pid)],
      ...(database.postmasterPid ? [['PostgreSQL', () => postgresCpuMs(database.postmasterPid!)] as [string, () => number]] : []),
      ['bench', () => selfCpuMs()],
    ];
    const stats = createPool(connectionString, 1);
    /** Commits and row writes of the bench database so far (what each phase costs PostgreSQL in work, not time). */
    const dbWork = async () => {
      const { rows } = await stats.query<{ commits: string; writes: string }>(
        'SELECT xact_commit + xact_rollback AS commits, tup_inserted + tup_updated + tup_deleted AS writes FROM pg_stat_database WHERE datname = current_database()',
      );
      return { commits: Number(rows[0]!.commits), writes: Number(rows[0]!.writes) };
    };
    /** Every statement to the server's log (DATA_DIR/postgres/log/postgres.log), each line prefixed with the phase and node; undefined: off again. */
    const logStatements = async (prefix: string | undefined) => {
      await stats.query(`ALTER SYSTEM SET log_statement = '${prefix ? 'all' : 'none'}'`);
      await stats.query(prefix ? `ALTER SYSTEM SET log_line_prefix = '${prefix}'` : 'ALTER SYSTEM RESET log_line_prefix');
      await stats.query('SELECT pg_reload_conf()');
      await new Promise((r) => setTimeout(r, 500));
    };
    /**
     * The connection behaviours of every customer message have run (each ticket's turn is past its last
     * customer message): they trail the socket events, and a phase's CPU must not spill into the next.
     */
    const behavioursRan = async () => {
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        const { rows } = await stats.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM tickets t LEFT JOIN ticket_turns tt ON tt.ticket_id = t.id
           WHERE t.company_id = $1 AND EXISTS (SELECT 1 FROM messages m WHERE m.ticket_id = t.id AND NOT m.from_me AND m.id > coalesce(tt.last_message_id, 0))`,
          [companyId],
        );
        if (rows[0]!.waiting === 0) return;
      }
      console.warn('the connection behaviours had not all run 60 s after the last socket event');
    };
    const cpuNow = () => processes.map(([, read]) => read());
    await behavioursRan();
    const idleStart = cpuNow();
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idle = cpuNow().map((x, i) => `${processes[i]![0]} ${((x - idleStart[i]!) / IDLE_SECONDS).toFixed(1)}`);

    const ingest = async (label: string, targets: string[]) => {
      // pg_stat_database is updated when a backend reports (at most every second): read it after a pause.
      await new Promise((r) => setTimeout(r, 1500));
      if (LOG_STATEMENTS) await logStatements(`@@ ${label} %a %p `);
      const work = await dbWork();
      const profiling = PROFILE_DIR ? [a, b] : [];
      for (const n of profiling) n.proc.send({ profile: 'start' });
      const before = cpuNow();
      const bodies = Array.from({ length: MESSAGES }, (_, i) => `${label} ${i} ${randomBytes(3).toString('hex')}`);
      const all = Promise.all(bodies.map(bothHeard));
      const t0 = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = next++; i < bodies.length; i = next++) await post(targets[i % targets.length]!, bodies[i]!, i);
        }),
      );
      const acked = performance.now() - t0;
      await all;
      const done = performance.now() - t0;
      await behavioursRan();
      const settled = performance.now() - t0;
      const spent = cpuNow().map((x, i) => (x - before[i]!) / MESSAGES);
      await Promise.all(
        profiling.map(
          (n, i) =>
            new Promise<void>((written) => {
              const onMessage = (m: { profiled?: string }) => {
                if (!m.profiled) return;
                n.proc.off('message', onMessage);
                written();
              };
              n.proc.on('message', onMessage);
              n.proc.send({ profile: 'stop', file: resolve(PROFILE_DIR!, `${label}-node-${'AB'[i]}-${Date.now()}.cpuprofile`) });
            }),
        ),
      );
      if (LOG_STATEMENTS) await logStatements(undefined);
      await new Promise((r) => setTimeout(r, 1500));
      const after = await dbWork();
      const server = spent.reduce((sum, x, i) => (processes[i]![0] === 'bench' ? sum : sum + x), 0);
      return [
        label === 'one' ? 'one node (all to A)' : 'two nodes (A and B)',
        `${((MESSAGES / acked) * 1000).toFixed(0)}`,
        `${((MESSAGES / done) * 1000).toFixed(1)}`,
        `${((MESSAGES / settled) * 1000).toFixed(1)}`,
        ...spent.map((x) => x.toFixed(2)),
        `**${server.toFixed(2)}**`,
        ((after.commits - work.commits) / MESSAGES).toFixed(2),
        ((after.writes - work.writes) / MESSAGES).toFixed(2),
        loadavg()[0]!.toFixed(2),
      ];
    };
    const rows: string[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rows.push(await ingest('one', [a.api]));
      rows.push(await ingest('two', [a.api, b.api]));
    }
    await stats.end();

    const [l1, l5] = loadavg();
    const commit = (() => {
      try {
        return execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
      } catch {
        return '?';
      }
    })();
    const names = processes.map(([name]) => name);
    console.log(
      [
        `commit ${commit}; load average ${startLoad} at the start, ${l1!.toFixed(2)} / ${l5!.toFixed(2)} (1 / 5 min) at the end`,
        `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}`,
        `cross-node delivery (${PROBES} messages one at a time, posted to A): webhook → socket on A p50 ${ms(pct(local, 0.5))}, p95 ${ms(pct(local, 0.95))}`,
        `  added on B's socket: p50 ${ms(pct(added, 0.5))}, p95 ${ms(pct(added, 0.95))}, p99 ${ms(pct(added, 0.99))}`,
        `idle, CPU ms per second: ${idle.join(', ')}`,
        `ingest, ${MESSAGES} messages, ${CONCURRENCY} in flight (CPU ms per message of each process until the behaviours ran; commits and row writes per message):`,
        `| Phase | acks/s | msg/s | behaviours done, msg/s | ${names.join(' | ')} | server side | commits | row writes | load 1 min |`,
        `|---|---|---|---|${names.map(() => '---|').join('')}---|---|---|---|`,
        ...rows.map((r) => `| ${r.join(' | ')} |`),
      ].join('\n'),
    );
    // Both rounds' phases of a name add up.
    if (LOG_STATEMENTS && database.embedded) console.log(statementCounts(dataDir).join('\n'));
  } finally {
    for (const s of sockets) s.close();
    for (const n of nodes) n.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 3000));
    await graph.close();
    await redis.stop();
    await database.stop();
  }
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
