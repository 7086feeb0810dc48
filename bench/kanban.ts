// Kanban board latency: GET /ticket/kanban with BENCH_BOARD (2 000) live tickets on the board (a benchmark, not a test).
// Starts the API in this process on an embedded PostgreSQL (or the server at DATABASE_URL), seeds ONE
// company with BENCH_BACKGROUND closed tickets plus the board's tickets (active today, 5 of 6 in one of
// 6 lanes, each contact with an opportunity value), ANALYZEs, then times sequential requests (app.inject:
// routing, auth, validation, the query, serialisation) as the admin (every queue: the whole board) and as
// an agent (two queues). The reference is PostgreSQL's own `pgbench -S` (select-only) on the same server
// in the same run: the result is printed as a ratio to one pgbench transaction, with the load average.
//   npm run bench:kanban
import { COMPANY_SETTING_DEFAULTS, kanbanTicketsResponse } from '@balcao/contracts';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseConfig } from '../apps/server/src/config.js';
import { createDb, createPool } from '../apps/server/src/db/client.js';
import { migrateAndSeed } from '../apps/server/src/db/migrate.js';
import { hashPassword } from '../apps/server/src/db/passwords.js';
import { companies, companySettings, plans, queues, tags, userQueues, users } from '../apps/server/src/db/schema/index.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { boardJson, boardJsonQuery } from '../apps/server/src/modules/kanban/board.js';
import { PgDialect } from 'drizzle-orm/pg-core';
import { loadViewer } from '../apps/server/src/modules/tickets/visibility.js';
import { benchDatabase } from './database.js';
import { runPgbench } from './pgbench.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const BOARD = num('BENCH_BOARD', 2000);
const BACKGROUND = num('BENCH_BACKGROUND', 100_000);
const REQUESTS = num('BENCH_REQUESTS', 100);
const WARMUP = num('BENCH_WARMUP', 10);
const PGBENCH_SECONDS = num('BENCH_PGBENCH_SECONDS', 15);
const QUEUES = 4;
const LANES = 6;
const PASSWORD = 'bench-password-1';

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');

async function main(): Promise<void> {
  const database = await benchDatabase('kanban');
  try {
    await migrateAndSeed(database.connectionString, { adminEmail: 'bench@balcao.local', adminPassword: PASSWORD });
    const pool = createPool(database.connectionString, 10);
    const db = createDb(pool);
    const [plan] = await db.insert(plans).values({ name: 'Bench kanban plan', users: 10, connections: 3, queues: QUEUES }).returning();
    const [company] = await db.insert(companies).values({ name: 'Bench kanban', planId: plan!.id, dueDate: '2999-01-01' }).returning();
    const companyId = company!.id;
    await db.insert(companySettings).values({ companyId, ...COMPANY_SETTING_DEFAULTS });
    const passwordHash = await hashPassword(PASSWORD);
    const [admin] = await db.insert(users).values({ companyId, name: 'Admin', email: 'admin@kanban.bench', passwordHash, profile: 'admin' }).returning();
    const [agent] = await db.insert(users).values({ companyId, name: 'Agent', email: 'agent@kanban.bench', passwordHash, profile: 'user', allUserChat: 'enabled' }).returning();
    const queueRows = await db
      .insert(queues)
      .values(Array.from({ length: QUEUES }, (_, i) => ({ companyId, name: `Fila ${i}`, color: `#3366${i}0` })))
      .returning();
    await db.insert(userQueues).values([
      ...queueRows.map((q) => ({ userId: admin!.id, queueId: q.id, companyId })),
      ...queueRows.slice(0, 2).map((q) => ({ userId: agent!.id, queueId: q.id, companyId })),
    ]);
    const laneRows = await db
      .insert(tags)
      .values(Array.from({ length: LANES }, (_, i) => ({ companyId, name: `Etapa ${i}`, color: '#2e7d32', kanban: 1 })))
      .returning();
    const ids = (rows: { id: number }[]) => `{${rows.map((r) => r.id).join(',')}}`;

    const t0 = performance.now();
    const total = BOARD + BACKGROUND;
    await pool.query(
      `INSERT INTO contacts (company_id, channel, name, number, remote_jid)
       SELECT $1, 'whatsapp', 'Cliente ' || i, '55' || lpad(i::text, 11, '0'), '55' || lpad(i::text, 11, '0') || '@s.whatsapp.net'
       FROM generate_series(1, $2::int) i`,
      [companyId, total],
    );
    // The first BOARD contacts get a live ticket active today; the others a closed one within the year.
    await pool.query(
      `INSERT INTO tickets (company_id, status, contact_id, queue_id, user_id, channel, last_message, updated_at, created_at, closed_at)
       SELECT $1, CASE WHEN live THEN (CASE WHEN n % 2 = 0 THEN 'open' ELSE 'pending' END) ELSE 'closed' END, c.id,
              ($3::int[])[1 + n % ${QUEUES}], CASE WHEN live AND n % 2 = 0 THEN $4::int END, 'whatsapp', 'Mensagem do cliente ' || n,
              ts, ts - interval '1 hour', CASE WHEN NOT live THEN ts END
       FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM contacts WHERE company_id = $1) c
       CROSS JOIN LATERAL (SELECT c.n <= $2 AS live) l
       CROSS JOIN LATERAL (SELECT CASE WHEN live THEN date_trunc('day', now()) + random() * (now() - date_trunc('day', now()))
                                  ELSE now() - interval '1 day' - random() * interval '365 days' END AS ts) t`,
      [companyId, BOARD, ids(queueRows), admin!.id],
    );
    await pool.query(
      `INSERT INTO ticket_tags (ticket_id, tag_id)
       SELECT id, ($2::int[])[1 + id % ${LANES}] FROM tickets WHERE company_id = $1 AND status <> 'closed' AND id % ${LANES + 1} <> 0`,
      [companyId, ids(laneRows)],
    );
    await pool.query(
      `INSERT INTO contact_custom_fields (company_id, contact_id, name, value)
       SELECT $1, contact_id, 'valor', (100 + id % 900)::text || '.50' FROM tickets WHERE company_id = $1 AND status <> 'closed'`,
      [companyId],
    );
    await pool.query('VACUUM ANALYZE');
    console.log(`seeded ${BOARD} board tickets and ${BACKGROUND} closed ones in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const config = parseConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '10000000', LOGIN_MAX_PER_IP: '100000', LOGIN_MAX_PER_EMAIL: '100000' });
    const app = await buildApp({ config, secrets: { jwtSecret: 'b'.repeat(48), jwtRefreshSecret: 'c'.repeat(48) }, pool });
    await app.ready();
    const token = async (email: string) =>
      ((await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } })).json() as { token: string }).token;

    const loadBefore = load();
    const rows: string[] = [];
    let adminP95 = NaN;
    for (const [role, email] of [
      ['admin (4 queues)', 'admin@kanban.bench'],
      ['agent (2 queues)', 'agent@kanban.bench'],
    ] as const) {
      const auth = { authorization: `Bearer ${await token(email)}` };
      const times: number[] = [];
      let cards = 0;
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const start = performance.now();
        const res = await app.inject({ method: 'GET', url: '/ticket/kanban', headers: auth });
        const ms = performance.now() - start;
        if (res.statusCode !== 200) throw new Error(`GET /ticket/kanban → ${res.statusCode} ${res.body}`);
        cards = (res.json() as { tickets: unknown[] }).tickets.length;
        if (i >= WARMUP) times.push(ms);
      }
      times.sort((a, b) => a - b);
      if (role.startsWith('admin')) adminP95 = percentile(times, 0.95);
      rows.push(`| ${role} | ${cards} | ${times.length} | ${percentile(times, 0.5).toFixed(1)} | ${percentile(times, 0.95).toFixed(1)} | ${percentile(times, 0.99).toFixed(1)} |`);
    }
    // The statement alone (no HTTP, no auth), for the admin's whole board: PostgreSQL answers the JSON text.
    const viewer = await loadViewer(db, { id: admin!.id, companyId });
    const boardQuery = new PgDialect().sqlToQuery(boardJsonQuery(viewer, {}));
    const queryTimes: number[] = [];
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      const start = performance.now();
      await boardJson(db, viewer, {});
      if (i >= WARMUP) queryTimes.push(performance.now() - start);
    }
    const parsed = kanbanTicketsResponse.parse(JSON.parse(await boardJson(db, viewer, {})));
    if (parsed.tickets.length !== BOARD) throw new Error(`the board has ${parsed.tickets.length} cards, not ${BOARD}`);
    queryTimes.sort((a, b) => a - b);
    rows.push(`| admin, statement only (no HTTP) | ${BOARD} | ${queryTimes.length} | ${percentile(queryTimes, 0.5).toFixed(1)} | ${percentile(queryTimes, 0.95).toFixed(1)} | ${percentile(queryTimes, 0.99).toFixed(1)} |`);
    const loadAfter = load();
    const explained = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${boardQuery.sql}`, boardQuery.params);
    await app.close();
    await pool.end();

    const ref = await runPgbench(database.adminConnectionString, 2, PGBENCH_SECONDS, '-S');
    // Two clients: one transaction takes 2 / tps seconds of one client's time.
    const txMs = ref ? (2 * 1000) / ref.tps : NaN;
    console.log(
      [
        '',
        `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; ${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}`,
        `load average (1/5/15 min): ${loadBefore} before, ${loadAfter} after the requests`,
        '',
        '| Caller | Cards | n | p50 ms | p95 ms | p99 ms |',
        '|---|---|---|---|---|---|',
        ...rows,
        '',
        ref
          ? `pgbench -S (2 clients, ${PGBENCH_SECONDS} s): ${ref.tps.toFixed(0)} tps → ${txMs.toFixed(3)} ms per select; admin board p95 = ${(adminP95 / txMs).toFixed(0)} × one pgbench select (target 200 ms: ${((adminP95 / 200) * 100).toFixed(0)} %)`
          : 'pgbench: NOT FOUND (no ratio)',
      ].join('\n'),
    );
    if (process.env.BENCH_PLANS !== '0') console.log(`\nThe board query's plan (admin, EXPLAIN ANALYZE):\n${explained.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  } finally {
    await database.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
