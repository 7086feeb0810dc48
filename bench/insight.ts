// Dashboard, report and export latency over a large company (a benchmark, not a test; issue 15).
// Starts the API in this process on the embedded PostgreSQL (or the server at DATABASE_URL), seeds ONE
// company with set-based SQL — BENCH_TICKETS tickets over the last year (4 % open, 4 % pending, 1 % group,
// 91 % closed), their log lines (create, accept, close), NPS answers on 30 % of the closed ones and
// BENCH_MESSAGES messages — then times sequential requests per scenario (app.inject: routing, auth,
// validation, queries, serialisation), streams an export of BENCH_EXPORT_ROWS rows over real HTTP while
// sampling the process RSS, and runs `pgbench -S` (select-only, 2 clients) on the same server as the
// reference: each p95 is also printed as a multiple of pgbench's average read-transaction latency.
//   npm run bench:insight
//   BENCH_TICKETS=1000000 BENCH_MESSAGES=10000000 BENCH_DATA_DIR=/tmp/balcao-insight-1m npm run bench:insight
// BENCH_DATA_DIR keeps the embedded cluster: a later run with the same counts reuses the seeded company.
import { execFile } from 'node:child_process';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { COMPANY_SETTING_DEFAULTS } from '@balcao/contracts';
import { parseConfig } from '../apps/server/src/config.js';
import { createDb, createPool } from '../apps/server/src/db/client.js';
import { companySettings } from '../apps/server/src/db/schema/index.js';
import { migrateAndSeed } from '../apps/server/src/db/migrate.js';
import { hashPassword } from '../apps/server/src/db/passwords.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { generateConnectionToken } from '../apps/server/src/modules/whatsapp/service.js';
import { benchDatabase } from './database.js';
import { runPgbench } from './pgbench.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const TICKETS = num('BENCH_TICKETS', 100_000);
const MESSAGES = num('BENCH_MESSAGES', TICKETS * 10);
const REQUESTS = num('BENCH_REQUESTS', 30);
const WARMUP = num('BENCH_WARMUP', 3);
const EXPORT_ROWS = num('BENCH_EXPORT_ROWS', Math.min(200_000, TICKETS));
const AGENTS = 20;
const QUEUES = 6;
const PASSWORD = 'bench-password-1';
/** The seeded company's name says its size: a kept cluster (BENCH_DATA_DIR) is reused only for the same counts. */
const COMPANY = `Insight bench ${TICKETS}/${MESSAGES}`;

const load = () => loadavg().map((l) => l.toFixed(2)).join(' / ');
const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const day = (d: Date) => d.toISOString().slice(0, 10);

async function timed(label: string, work: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  await work();
  console.log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/** The company, its users, queues and connections, then the bulk rows without secondary indexes (rebuilt after). */
async function seed(pool: pg.Pool): Promise<{ companyId: number; adminEmail: string; agentEmail: string; agentIds: number[] }> {
  const client = await pool.connect();
  try {
    const one = async <T>(text: string, values: unknown[]) => (await client.query(text, values)).rows[0] as T;
    const plan = await one<{ id: number }>(`INSERT INTO plans (name, users, connections, queues) VALUES ('insight bench', 100, 3, 10) RETURNING id`, []);
    // Named COMPANY only once seeded: an interrupted seed is never reused (BENCH_DATA_DIR).
    const { id: companyId } = await one<{ id: number }>(`INSERT INTO companies (name, plan_id, due_date) VALUES ($1, $2, '2999-01-01') RETURNING id`, [`${COMPANY} (seeding)`, plan.id]);
    await createDb(pool).insert(companySettings).values({ companyId, ...COMPANY_SETTING_DEFAULTS });
    const hash = await hashPassword(PASSWORD);
    await client.query(`INSERT INTO users (company_id, name, email, password_hash, profile) VALUES ($1, 'Bench admin', $2, $3, 'admin')`, [companyId, `admin-${companyId}@bench.local`, hash]);
    const agents = await client.query<{ id: number }>(
      `INSERT INTO users (company_id, name, email, password_hash, show_dashboard, online)
       SELECT $1::int, 'Agent ' || i, 'agent-' || i || '-' || $1::int || '@bench.local', $2, 'enabled', i % 2 = 0 FROM generate_series(0, ${AGENTS - 1}) i RETURNING id`,
      [companyId, hash],
    );
    const queues = await client.query<{ id: number }>(
      `INSERT INTO queues (company_id, name, color) SELECT $1, 'Fila ' || i, '#' || lpad(to_hex(1048576 + i * 127217), 6, '0') FROM generate_series(0, ${QUEUES - 1}) i RETURNING id`,
      [companyId],
    );
    const agentIds = agents.rows.map((r) => r.id);
    await client.query(
      `INSERT INTO user_queues (user_id, queue_id, company_id) SELECT u, q, $1 FROM unnest($2::int[]) WITH ORDINALITY a(u, n), unnest($3::int[]) WITH ORDINALITY b(q, m) WHERE (n + m) % 3 = 0`,
      [companyId, agentIds, queues.rows.map((r) => r.id)],
    );
    const conns = await client.query<{ id: number }>(
      `INSERT INTO whatsapps (company_id, name, channel, status, token) SELECT $1, 'Conexao ' || i, 'whatsapp', 'CONNECTED', unnest($2::text[]) FROM generate_series(0, 2) i LIMIT 3 RETURNING id`,
      [companyId, [generateConnectionToken(), generateConnectionToken(), generateConnectionToken()]],
    );

    await client.query(`SET maintenance_work_mem = '512MB'`);
    await client.query(`SET synchronous_commit = off`);
    await client.query(`SET session_replication_role = replica`);
    const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
       WHERE i.schemaname = 'public' AND i.tablename IN ('contacts', 'tickets', 'messages', 'ticket_logs', 'ticket_ratings')
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    );
    for (const ix of indexes) await client.query(`DROP INDEX ${ix.indexname}`);
    await timed('contacts', () =>
      client.query(
        `INSERT INTO contacts (company_id, channel, name, number, remote_jid, created_at)
         SELECT $1, 'whatsapp', 'Cliente ' || i, '55' || lpad(i::text, 11, '0'), '55' || lpad(i::text, 11, '0') || '@s.whatsapp.net', now() - random() * interval '365 days'
         FROM generate_series(1, $2::int) i`,
        [companyId, TICKETS],
      ),
    );
    await timed('tickets', () =>
      client.query(
        `INSERT INTO tickets (company_id, status, contact_id, whatsapp_id, queue_id, user_id, is_group, channel, last_message, created_at, updated_at, closed_at, last_message_at)
         SELECT $1, st, c0 + i - 1, ($3::int[])[1 + i % 3],
                CASE WHEN i % 20 = 0 THEN NULL ELSE ($4::int[])[1 + i % ${QUEUES}] END,
                CASE WHEN st IN ('pending', 'group') THEN NULL ELSE ($5::int[])[1 + (i * 7) % ${AGENTS}] END,
                st = 'group', 'whatsapp', 'mensagem ' || i, ts, ts, CASE WHEN st = 'closed' THEN ts + random() * interval '3 hours' END, ts
         FROM generate_series(1, $2::int) i
         CROSS JOIN (SELECT min(id) AS c0 FROM contacts WHERE company_id = $1) c
         CROSS JOIN LATERAL (SELECT CASE WHEN i % 100 < 4 THEN 'open' WHEN i % 100 < 8 THEN 'pending' WHEN i % 100 < 9 THEN 'group' ELSE 'closed' END AS st,
                                    now() - random() * interval '365 days' AS ts) s`,
        [companyId, TICKETS, conns.rows.map((r) => r.id), queues.rows.map((r) => r.id), agentIds],
      ),
    );
    // Every ticket's creation (a tenth by an attendant), its accept (all but pending and groups), its close.
    await timed('ticket logs', () =>
      client.query(
        `INSERT INTO ticket_logs (company_id, ticket_id, type, user_id, created_at)
         SELECT company_id, id, 'create', CASE WHEN id % 10 = 0 THEN user_id END, created_at FROM tickets WHERE company_id = $1
         UNION ALL
         SELECT company_id, id, 'open', user_id, created_at + random() * interval '30 minutes' FROM tickets WHERE company_id = $1 AND user_id IS NOT NULL AND id % 10 <> 0
         UNION ALL
         SELECT company_id, id, 'closed', user_id, closed_at FROM tickets WHERE company_id = $1 AND status = 'closed'`,
        [companyId],
      ),
    );
    await timed('ratings', () =>
      client.query(
        `INSERT INTO ticket_ratings (company_id, ticket_id, user_id, rate, created_at)
         SELECT company_id, id, user_id, floor(random() * 11)::int, closed_at FROM tickets WHERE company_id = $1 AND status = 'closed' AND id % 10 < 3`,
        [companyId],
      ),
    );
    // The columns the database's triggers keep (migration 0014) do not fire during a replica-mode load: set them as the migration's backfill does.
    await timed('accept times and ratings onto tickets', async () => {
      await client.query(
        `UPDATE tickets t SET accepted_at = l.accepted_at, started_by_user = l.started
         FROM (SELECT ticket_id, min(created_at) FILTER (WHERE type = 'open' OR (type = 'create' AND user_id IS NOT NULL)) AS accepted_at,
                      coalesce(bool_or(type = 'create' AND user_id IS NOT NULL), false) AS started
               FROM ticket_logs WHERE company_id = $1 GROUP BY ticket_id) l
         WHERE l.ticket_id = t.id AND (l.accepted_at IS NOT NULL OR l.started)`,
        [companyId],
      );
      await client.query(`UPDATE tickets t SET rate = r.rate FROM ticket_ratings r WHERE r.ticket_id = t.id AND r.company_id = $1`, [companyId]);
    });
    // Nor does the dashboard's daily summary (migration 0034): count the company's tickets in as its backfill does.
    await timed('daily summary', () =>
      client.query(`DO $$ BEGIN EXECUTE dashboard_daily_add('SELECT 1 AS sign, * FROM tickets WHERE company_id = ${companyId}'); PERFORM dashboard_daily_compact(); END $$`),
    );
    const chunk = 1_000_000;
    for (let from = 1; from <= MESSAGES; from += chunk) {
      const to = Math.min(MESSAGES, from + chunk - 1);
      await timed(`messages ${from}–${to}`, () =>
        client.query(
          `INSERT INTO messages (company_id, ticket_id, body, from_me, read, ack, created_at)
           SELECT $1, t0 + i % $4::int, 'mensagem ' || i, random() < 0.5, true, 3, now() - random() * interval '365 days'
           FROM generate_series($2::int, $3::int) i CROSS JOIN (SELECT min(id) AS t0 FROM tickets WHERE company_id = $1) t`,
          [companyId, from, to, TICKETS],
        ),
      );
    }
    await client.query(`SET session_replication_role = origin`);
    for (const ix of indexes) await timed(`index ${ix.indexname}`, () => client.query(ix.indexdef));
    await timed('vacuum analyze', () => client.query('VACUUM ANALYZE'));
    await client.query('UPDATE companies SET name = $1 WHERE id = $2', [COMPANY, companyId]);
    return { companyId, adminEmail: `admin-${companyId}@bench.local`, agentEmail: `agent-0-${companyId}@bench.local`, agentIds };
  } finally {
    client.release();
  }
}

/** The company a previous run seeded with the same counts in a kept cluster (BENCH_DATA_DIR). */
async function seeded(pool: pg.Pool): Promise<Awaited<ReturnType<typeof seed>> | undefined> {
  const { rows } = await pool.query<{ id: number }>('SELECT id FROM companies WHERE name = $1', [COMPANY]);
  const companyId = rows[0]?.id;
  if (companyId === undefined) return undefined;
  console.log(`reusing the seeded company ${companyId} (${COMPANY})`);
  const agents = await pool.query<{ id: number }>(`SELECT id FROM users WHERE company_id = $1 AND profile <> 'admin' ORDER BY id`, [companyId]);
  return { companyId, adminEmail: `admin-${companyId}@bench.local`, agentEmail: `agent-0-${companyId}@bench.local`, agentIds: agents.rows.map((r) => r.id) };
}

/** Downloads `url` in a child Node process (its buffers are not the server's) and answers the bytes received. */
function download(url: string, token: string): Promise<number> {
  const script = `fetch(process.argv[1], { headers: { authorization: 'Bearer ' + process.argv[2] } }).then(async (res) => {
    if (res.status !== 200) throw new Error('export answered ' + res.status);
    let bytes = 0;
    for await (const chunk of res.body) bytes += chunk.byteLength;
    console.log(bytes);
  }).catch((err) => { console.error(err); process.exit(1); });`;
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['-e', script, url, token], { maxBuffer: 1 << 20 }, (err, stdout) => (err ? reject(err) : resolve(Number(stdout.trim())))),
  );
}

async function main(): Promise<void> {
  const database = await benchDatabase('insight');
  try {
    await migrateAndSeed(database.connectionString, { adminEmail: 'bench@balcao.local', adminPassword: PASSWORD });
    const pool = createPool(database.connectionString, 10);
    const s = (await seeded(pool)) ?? (console.log(`seeding ${TICKETS} tickets, ${MESSAGES} messages…`), await seed(pool));
    const config = parseConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '10000000', LOGIN_MAX_PER_IP: '100000', LOGIN_MAX_PER_EMAIL: '100000' });
    const app = await buildApp({ config, secrets: { jwtSecret: 'b'.repeat(48), jwtRefreshSecret: 'c'.repeat(48) }, pool });
    await app.ready();
    const login = async (email: string) => ((await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } })).json() as { token: string }).token;
    const admin = await login(s.adminEmail);
    const agent = await login(s.agentEmail);

    const today = new Date();
    const monthAgo = new Date(today.getTime() - 29 * 86_400_000);
    const month = `${day(monthAgo)}`;
    const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
    const scenarios: [string, string, string][] = [
      ['admin', 'dashboard, last 30 days', `/dashboard?date_from=${month}&date_to=${day(today)}`],
      ['admin', 'tickets per user, 30 days', `/dashboard/ticketsUsers?initialDate=${month}&finalDate=${day(today)}`],
      ['admin', 'tickets per day, 30 days', `/dashboard/ticketsDay?initialDate=${month}&finalDate=${day(today)}`],
      ['admin', 'messages received, 30 days', `/messages-allMe?fromMe=false&dateStart=${month}&dateEnd=${day(today)}`],
      ['admin', 'report, no filter', '/ticketreport/reports?page=1&pageSize=10'],
      ['admin', 'report, 30 days', `/ticketreport/reports?dateFrom=${month}&dateTo=${day(today)}&page=1&pageSize=10`],
      ['admin', 'report, status open', `/ticketreport/reports?status=${enc(['open'])}&page=1&pageSize=10`],
      ['admin', 'report, one user, page 50', `/ticketreport/reports?users=${enc([s.agentIds[3]])}&page=50&pageSize=10`],
      ['admin', 'report, only rated, 30 days', `/ticketreport/reports?onlyRated=true&dateFrom=${month}&dateTo=${day(today)}&page=1&pageSize=10`],
      ['admin', 'report, contact search', '/ticketreport/reports?searchParam=Cliente%20777&page=1&pageSize=10'],
      ['agent', 'report, plain user (own + queues)', '/ticketreport/reports?page=1&pageSize=10'],
      ['agent', 'report, plain user, 30 days', `/ticketreport/reports?dateFrom=${month}&dateTo=${day(today)}&page=1&pageSize=10`],
    ];
    const rows: string[] = [];
    const p95s: [string, number][] = [];
    for (const [who, name, url] of scenarios) {
      const token = who === 'admin' ? admin : agent;
      const times: number[] = [];
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
        times.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body}`);
      }
      const sorted = times.slice(WARMUP).sort((a, b) => a - b);
      p95s.push([name, percentile(sorted, 0.95)]);
      rows.push(`| ${who} | ${name} | ${sorted.length} | ${percentile(sorted, 0.5).toFixed(1)} | ${percentile(sorted, 0.95).toFixed(1)} |`);
      console.log(rows[rows.length - 1]);
    }

    // The export over real HTTP, downloaded by a child process (so this process's RSS is the server's alone); RSS sampled every 50 ms.
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const since = new Date(Date.now() - 366 * 86_400_000);
    const { rows: cut } = await pool.query<{ created_at: Date }>(
      `SELECT created_at FROM tickets WHERE company_id = $1 ORDER BY created_at DESC OFFSET $2 LIMIT 1`,
      [s.companyId, EXPORT_ROWS - 1],
    );
    const from = day(cut[0]?.created_at ?? since);
    const rssBefore = process.memoryUsage().rss;
    let rssMax = rssBefore;
    const heapBefore = process.memoryUsage().heapUsed;
    let heapMax = heapBefore;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      rssMax = Math.max(rssMax, m.rss);
      heapMax = Math.max(heapMax, m.heapUsed);
    }, 50);
    const cpuBefore = process.cpuUsage();
    const t0 = performance.now();
    const bytes = await download(`http://127.0.0.1:${port}/ticketreport/export?dateFrom=${from}&dateTo=${day(today)}`, admin);
    const exportSeconds = (performance.now() - t0) / 1000;
    const exportCpu = process.cpuUsage(cpuBefore);
    clearInterval(sampler);
    const { rows: exported } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM tickets WHERE company_id = $1 AND created_at >= $2::date::timestamptz`, [s.companyId, from]);

    const loadBefore = load();
    const ref = await runPgbench(database.adminConnectionString, 2, 15, '-S');
    console.log(
      [
        '',
        `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM (${(freemem() / 2 ** 30).toFixed(0)} GiB free), Node ${process.version}; load average ${loadBefore}`,
        `database: ${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}; ${TICKETS} tickets, ${MESSAGES} messages in one company; ${REQUESTS} sequential requests per row after ${WARMUP} warm-up`,
        '',
        '| Caller | Scenario | n | p50 ms | p95 ms |',
        '|---|---|---|---|---|',
        ...rows,
        '',
        `export: ${exported[0]?.n ?? '?'} rows since ${from}, ${(bytes / 2 ** 20).toFixed(1)} MiB .xlsx in ${exportSeconds.toFixed(1)} s (server CPU ${((exportCpu.user + exportCpu.system) / 1000).toFixed(0)} ms); server RSS ${(rssBefore / 2 ** 20).toFixed(0)} → max ${(rssMax / 2 ** 20).toFixed(0)} MiB (growth ${((rssMax - rssBefore) / 2 ** 20).toFixed(0)} MiB); V8 heap used ${(heapBefore / 2 ** 20).toFixed(0)} → max ${(heapMax / 2 ** 20).toFixed(0)} MiB`,
        ref
          ? `pgbench -S (2 clients, 15 s): ${ref.tps.toFixed(0)} tps, latency average ${ref.latencyMs.toFixed(3)} ms; load average now ${load()}\n` +
            p95s.map(([name, p95]) => `  ${name}: p95 = ${(p95 / ref.latencyMs).toFixed(0)} × pgbench -S latency`).join('\n')
          : 'pgbench: NOT FOUND: no reference ratio',
      ].join('\n'),
    );
    await app.close();
    await pool.end();
  } finally {
    await database.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
