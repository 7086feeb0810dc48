// Inbox list latency: GET /tickets over a large company (a benchmark, not a test).
// Starts the API in this process on the embedded PostgreSQL (or the server at DATABASE_URL),
// seeds ONE company with BENCH_TICKETS tickets and BENCH_MESSAGES messages with set-based SQL,
// ANALYZEs, then times BENCH_REQUESTS sequential requests per scenario (app.inject: routing,
// auth, validation, queries, serialisation) as a plain user and as an admin, and prints the
// plans of each scenario's statements that find the page (EXPLAIN ANALYZE): the matches read of
// tag filters and contact searches, and the page walk of the others (or past the count cap).
//   npm run bench:tickets
//   BENCH_TICKETS=1000000 BENCH_MESSAGES=10000000 BENCH_DATA_DIR=/tmp/balcao-bench-1m npm run bench:tickets
// BENCH_DATA_DIR keeps the embedded cluster: a later run with the same counts reuses the seeded data.
import { COMPANY_SETTING_DEFAULTS, TICKET_COUNT_CAP, listTicketsQuery } from '@balcao/contracts';
import { asc, eq } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { parseConfig } from '../apps/server/src/config.js';
import { createDb, createPool, type Db } from '../apps/server/src/db/client.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../apps/server/src/db/embedded.js';
import { migrateAndSeed } from '../apps/server/src/db/migrate.js';
import { hashPassword } from '../apps/server/src/db/passwords.js';
import { companies, companySettings, plans, queues, tags, userQueues, users, whatsapps } from '../apps/server/src/db/schema/index.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { chooseMessageSearch, chooseTagFilter, matchesStatement, readsMatchesFirst, walkPageQuery } from '../apps/server/src/modules/tickets/list-query.js';
import { loadViewer } from '../apps/server/src/modules/tickets/visibility.js';
import { generateConnectionToken } from '../apps/server/src/modules/whatsapp/service.js';
import { cpuMeter } from './cpu.js';
import { runPgbench } from './pgbench.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const TICKETS = num('BENCH_TICKETS', 100_000);
const MESSAGES = num('BENCH_MESSAGES', TICKETS * 10);
const REQUESTS = num('BENCH_REQUESTS', 200);
const WARMUP = num('BENCH_WARMUP', 20);
/** A scenario stops sampling after this long (slow scenarios report fewer requests). */
const SCENARIO_SECONDS = num('BENCH_SCENARIO_SECONDS', 60);
/** Only the scenarios whose name contains this text. */
const ONLY = process.env.BENCH_ONLY ?? '';
const load = () => loadavg().map((l) => l.toFixed(2)).join(' / ');
const AGENTS = 20;
const QUEUES = 6;
const TAGS = 20;
const PASSWORD = 'bench-password-1';
const COMPANY = `Bench inbox ${TICKETS}/${MESSAGES}`;

const FIRST_NAMES = 'Maria Ana Francisca Antonia Adriana Juliana Marcia Fernanda Patricia Aline Jose Joao Antonio Francisco Carlos Paulo Pedro Lucas Luiz Marcos Luis Gabriel Rafael Daniel Marcelo Bruno Eduardo Felipe Raimundo Rodrigo Camila Amanda Bruna Leticia Julia Beatriz Larissa Vanessa Sandra Tatiane'.split(' ');
const LAST_NAMES = 'Silva Santos Oliveira Souza Rodrigues Ferreira Alves Pereira Lima Gomes Costa Ribeiro Martins Carvalho Almeida Lopes Soares Fernandes Vieira Barbosa Rocha Dias Nascimento Andrade Moreira Nunes Marques Machado Mendes Freitas Cardoso Ramos Goncalves Santana Teixeira Araujo Pinto Correia Moura Cavalcanti'.split(' ');
// Message words, most frequent first (picked with a skewed distribution, so some are common and some rare).
const WORDS = `ok obrigado bom dia boa tarde noite sim nao por favor pedido entrega produto preco valor pagamento pix boleto cartao
  prazo frete endereco cep numero nota fiscal troca devolucao garantia defeito suporte atendimento protocolo senha acesso conta
  cadastro email telefone whatsapp horario loja retirada estoque disponivel cor tamanho modelo marca desconto cupom promocao
  parcelamento juros vencimento segunda via comprovante transferencia estorno cancelamento reembolso status rastreio codigo
  transportadora correios atraso chegou recebi enviado separacao faturado aprovado recusado analise pendente urgente ajuda duvida
  problema reclamacao elogio sugestao orcamento instalacao manutencao visita tecnico agenda amanha hoje ontem semana mes manha
  parafuso porca arruela furadeira martelo serrote alicate chave fenda philips trena nivel broca lixa tinta pincel rolo massa
  cimento areia brita tijolo telha piso azulejo rejunte argamassa torneira registro valvula sifao cano conexao joelho luva
  tomada interruptor disjuntor fio cabo lampada luminaria spot refletor sensor campainha fechadura cadeado dobradica puxador`
  .split(/\s+/)
  .filter(Boolean);
/** A mid-frequency word (in a few percent of messages) and an order token (in one message). */
const COMMON_TERM = WORDS[Math.floor(WORDS.length / 3)]!;
const RARE_TERM = `pedido${Math.floor(MESSAGES / 20)}`;

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function timed(label: string, work: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  await work();
  console.log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

interface Seeded {
  companyId: number;
  adminEmail: string;
  userEmail: string;
  queueIds: number[];
  userQueueIds: number[];
  tagId: number;
}

/** Finds the company a previous run seeded with the same counts (BENCH_DATA_DIR), else seeds it. */
async function seed(db: Db, pool: pg.Pool): Promise<Seeded> {
  const [existing] = await db.select().from(companies).where(eq(companies.name, COMPANY));
  if (existing) {
    console.log(`reusing the seeded company ${existing.id} (${COMPANY})`);
    // A migration that just rewrote ticket_tags (0044's copy) leaves pages not all-visible (a first vacuum right
    // after it marked 58 % at 1 M): the planner then costs heap fetches and scans the table. Measure the state
    // autovacuum soon leaves.
    await timed('vacuum ticket_tags', async () => {
      for (let pass = 0; pass < 5; pass++) {
        await pool.query('VACUUM (ANALYZE) ticket_tags');
        const { rows } = await pool.query<{ visible: number }>(`SELECT relallvisible::float / greatest(relpages, 1) AS visible FROM pg_class WHERE oid = 'ticket_tags'::regclass`);
        if ((rows[0]?.visible ?? 1) >= 0.99) break;
      }
    });
    return describeSeeded(db, existing.id);
  }
  console.log(`seeding ${TICKETS} tickets, ${MESSAGES} messages…`);
  const [plan] = await db.insert(plans).values({ name: `${COMPANY} plan`, users: AGENTS + 1, connections: 3, queues: QUEUES }).returning();
  // Named COMPANY only once seeded: an interrupted seed is never reused.
  const [company] = await db.insert(companies).values({ name: `${COMPANY} (seeding)`, planId: plan!.id, dueDate: '2999-01-01' }).returning();
  const companyId = company!.id;
  await db.insert(companySettings).values({ companyId, ...COMPANY_SETTING_DEFAULTS });
  const passwordHash = await hashPassword(PASSWORD);
  await db.insert(users).values({ companyId, name: 'Bench admin', email: `admin-${companyId}@bench.local`, passwordHash, profile: 'admin' });
  const agents = await db
    .insert(users)
    .values(Array.from({ length: AGENTS }, (_, i) => ({ companyId, name: `Agent ${i}`, email: `agent-${i}-${companyId}@bench.local`, passwordHash })))
    .returning();
  const queueRows = await db
    .insert(queues)
    .values(Array.from({ length: QUEUES }, (_, i) => ({ companyId, name: `Fila ${i}`, color: `#${(0x100000 + i * 0x1f1f1).toString(16).slice(-6)}` })))
    .returning();
  await db.insert(userQueues).values(agents.flatMap((a, i) => [0, 1].map((k) => ({ userId: a.id, queueId: queueRows[(i + k) % QUEUES]!.id, companyId }))));
  const connections = await db
    .insert(whatsapps)
    .values(Array.from({ length: 3 }, (_, i) => ({ companyId, name: `Conexao ${i}`, channel: 'whatsapp' as const, status: 'CONNECTED' as const, token: generateConnectionToken() })))
    .returning();
  const tagRows = await db
    .insert(tags)
    .values(Array.from({ length: TAGS }, (_, i) => ({ companyId, name: `Etiqueta ${i}`, color: '#336699' })))
    .returning();
  const ids = (rows: { id: number }[]) => `{${rows.map((r) => r.id).join(',')}}`;

  const client = await pool.connect();
  try {
    await client.query(`SET maintenance_work_mem = '1GB'`);
    await client.query(`SET synchronous_commit = off`);
    // Bulk load without secondary indexes and foreign-key triggers (the data is consistent by
    // construction), then rebuild the indexes exactly as the migrations define them.
    await client.query(`SET session_replication_role = replica`);
    const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
       WHERE i.schemaname = 'public' AND i.tablename IN ('contacts', 'tickets', 'messages', 'ticket_tags')
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    );
    for (const ix of indexes) await client.query(`DROP INDEX ${ix.indexname}`);
    await timed('contacts', () =>
      client.query(
        `INSERT INTO contacts (company_id, channel, name, number, remote_jid)
         SELECT $1, 'whatsapp', ($3::text[])[1 + i % 40] || ' ' || ($4::text[])[1 + (i / 40) % 40],
                '55' || lpad(i::text, 11, '0'), '55' || lpad(i::text, 11, '0') || '@s.whatsapp.net'
         FROM generate_series(1, $2::int) i`,
        [companyId, TICKETS, FIRST_NAMES, LAST_NAMES],
      ),
    );
    // 4 % open, 4 % pending, 1 % group, 91 % closed; 5 % without a queue; live tickets from the last 30 days.
    await timed('tickets', () =>
      client.query(
        `INSERT INTO tickets (company_id, status, contact_id, whatsapp_id, queue_id, user_id, is_group, channel,
                              last_message, unread_messages, created_at, updated_at, closed_at, last_message_at)
         SELECT $1, s.status, c0.id + i - 1, ($3::int[])[1 + i % 3],
                CASE WHEN i % 20 = 0 THEN NULL ELSE ($4::int[])[1 + floor(random() * ${QUEUES})::int] END,
                CASE WHEN s.status IN ('pending', 'group') THEN NULL ELSE ($5::int[])[1 + floor(random() * ${AGENTS})::int] END,
                s.status = 'group', 'whatsapp', 'mensagem ' || i,
                CASE WHEN s.status = 'pending' THEN i % 4 ELSE 0 END,
                s.ts - interval '1 hour', s.ts, CASE WHEN s.status = 'closed' THEN s.ts END, s.ts
         FROM generate_series(1, $2::int) i
         CROSS JOIN (SELECT min(id) AS id FROM contacts WHERE company_id = $1) c0
         CROSS JOIN LATERAL (
           SELECT st AS status, now() - random() * CASE WHEN st = 'closed' THEN interval '365 days' ELSE interval '30 days' END AS ts
           FROM (SELECT CASE WHEN i % 100 < 4 THEN 'open' WHEN i % 100 < 8 THEN 'pending' WHEN i % 100 < 9 THEN 'group' ELSE 'closed' END AS st) x
         ) s`,
        [companyId, TICKETS, ids(connections), ids(queueRows), ids(agents)],
      ),
    );
    // A third of the tickets carry one tag, a tenth another. With the triggers off, the links' copy of their
    // ticket's status and owner (migration 0044) is written here.
    await timed('ticket tags', () =>
      client.query(
        `INSERT INTO ticket_tags (ticket_id, tag_id, status, user_id)
         SELECT id, ($2::int[])[1 + (id * 31) % ${TAGS}], status, user_id FROM tickets WHERE company_id = $1 AND id % 3 = 0
         UNION ALL
         SELECT id, ($2::int[])[1 + (id * 17 + 7) % ${TAGS}], status, user_id FROM tickets WHERE company_id = $1 AND id % 10 = 1
         ON CONFLICT DO NOTHING`,
        [companyId, ids(tagRows)],
      ),
    );
    const chunk = 1_000_000;
    const word = `($4::text[])[1 + floor(${WORDS.length} * power(random(), 2.5))::int]`;
    for (let from = 1; from <= MESSAGES; from += chunk) {
      const to = Math.min(MESSAGES, from + chunk - 1);
      await timed(`messages ${from}–${to}`, () =>
        client.query(
          `INSERT INTO messages (company_id, ticket_id, body, from_me, read, ack, created_at)
           SELECT $1, t0.id + i % $5::int,
                  ${Array(6).fill(word).join(" || ' ' || ")} || CASE WHEN i % 10 = 0 THEN ' pedido' || (i / 10) % 1000000 ELSE '' END,
                  random() < 0.5, true, 3, now() - random() * interval '365 days'
           FROM generate_series($2::int, $3::int) i
           CROSS JOIN (SELECT min(id) AS id FROM tickets WHERE company_id = $1) t0`,
          [companyId, from, to, WORDS, TICKETS],
        ),
      );
    }
    await client.query(`SET session_replication_role = origin`);
    for (const ix of indexes) await timed(`index ${ix.indexname}`, () => client.query(ix.indexdef));
    await timed('vacuum analyze', () => client.query('VACUUM ANALYZE'));
  } finally {
    client.release();
  }
  await db.update(companies).set({ name: COMPANY }).where(eq(companies.id, companyId));
  return describeSeeded(db, companyId);
}

async function describeSeeded(db: Db, companyId: number): Promise<Seeded> {
  const [admin] = await db.select().from(users).where(eq(users.email, `admin-${companyId}@bench.local`));
  const [agent] = await db.select().from(users).where(eq(users.email, `agent-0-${companyId}@bench.local`));
  const queueIds = (await db.select({ id: queues.id }).from(queues).where(eq(queues.companyId, companyId))).map((q) => q.id);
  const userQueueIds = (await db.select({ id: userQueues.queueId }).from(userQueues).where(eq(userQueues.userId, agent!.id))).map((q) => q.id);
  const [tag] = await db.select({ id: tags.id }).from(tags).where(eq(tags.companyId, companyId)).orderBy(asc(tags.id)).limit(1);
  return { companyId, adminEmail: admin!.email, userEmail: agent!.email, queueIds, userQueueIds, tagId: tag!.id };
}

async function main(): Promise<void> {
  const keep = process.env.BENCH_DATA_DIR;
  const dataDir = keep ?? mkdtempSync(join(tmpdir(), 'balcao-bench-tickets-'));
  let embedded: EmbeddedPostgres | undefined;
  let connectionString = process.env.DATABASE_URL;
  if (!connectionString) {
    // A fixed password: a kept cluster must accept the next run (it listens on loopback only).
    embedded = await startEmbeddedPostgres({ dataDir, password: 'balcao-bench', database: 'balcao_bench', fast: true });
    connectionString = embedded.connectionString();
  }
  const adminUrl = embedded ? embedded.connectionString('postgres') : connectionString;
  try {
    await migrateAndSeed(connectionString, { adminEmail: 'bench@balcao.local', adminPassword: PASSWORD });
    const pool = createPool(connectionString, 10);
    const db = createDb(pool);
    const s = await seed(db, pool);
    const config = parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '10000000', LOGIN_MAX_PER_IP: '100000', LOGIN_MAX_PER_EMAIL: '100000' });
    const app = await buildApp({ config, secrets: { jwtSecret: 'b'.repeat(48), jwtRefreshSecret: 'c'.repeat(48) }, pool });
    await app.ready();

    const session = async (email: string) => {
      const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } });
      const body = res.json() as { token: string; user: { id: number; companyId: number } };
      return { token: body.token, viewer: await loadViewer(db, body.user) };
    };
    const roles = { user: await session(s.userEmail), admin: await session(s.adminEmail) };
    const scenarios: [string, (queueIds: number[]) => Record<string, string>][] = [
      ['open tab', (q) => ({ status: 'open', showAll: 'false', queueIds: JSON.stringify(q) })],
      ['open tab, show all', (q) => ({ status: 'open', showAll: 'true', queueIds: JSON.stringify(q) })],
      ['pending tab', (q) => ({ status: 'pending', queueIds: JSON.stringify(q) })],
      ['tag filter (open tab, show all)', (q) => ({ status: 'open', showAll: 'true', tags: `[${s.tagId}]`, queueIds: JSON.stringify(q) })],
      ['tag filter (closed)', (q) => ({ status: 'closed', tags: `[${s.tagId}]`, queueIds: JSON.stringify(q) })],
      ['contact search', () => ({ searchParam: 'maria sil' })],
      [`message search, common word "${COMMON_TERM}"`, () => ({ searchParam: COMMON_TERM, searchOnMessages: 'true' })],
      [`message search, rare token "${RARE_TERM}"`, () => ({ searchParam: RARE_TERM, searchOnMessages: 'true' })],
    ];

    const results: { row: string; p95: number }[] = [];
    const loadBefore = load();
    const plans: string[] = [];
    for (const [role, who] of Object.entries(roles)) {
      const queueIds = role === 'admin' ? s.queueIds : s.userQueueIds;
      for (const [name, paramsOf] of scenarios.filter(([n]) => n.includes(ONLY))) {
        const params = paramsOf(queueIds);
        const url = `/tickets?${new URLSearchParams(params).toString()}`;
        const times: number[] = [];
        let shown = 0;
        const cpu = cpuMeter(embedded?.pid());
        const until = performance.now() + SCENARIO_SECONDS * 1000;
        for (let i = 0; i < WARMUP + REQUESTS && (i < 2 || performance.now() < until); i++) {
          const t0 = performance.now();
          const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${who.token}` } });
          const ms = performance.now() - t0;
          if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body}`);
          if (i === 0) shown = (res.json() as { tickets: unknown[] }).tickets.length;
          times.push(ms);
        }
        const spent = cpu.stop();
        const cpuEach = (ms: number | undefined) => (ms === undefined ? '—' : (ms / times.length).toFixed(2));
        // The warm-up requests are dropped; a slow scenario that ran out of time drops its first half instead.
        const samples = times.slice(Math.min(WARMUP, Math.floor(times.length / 2))).sort((a, b) => a - b);
        results.push({
          row: `| ${role} | ${name} | ${shown} | ${samples.length} | ${percentile(samples, 0.5).toFixed(1)} | ${percentile(samples, 0.95).toFixed(1)} | ${percentile(samples, 0.99).toFixed(1)} | ${cpuEach(spent.nodeMs)} | ${cpuEach(spent.postgresMs)} |`,
          p95: percentile(samples, 0.95),
        });

        // The statements that find the page, as the app builds them (same message-search and tag choices).
        const q = listTicketsQuery.parse(params);
        const way = q.searchOnMessages ? await chooseMessageSearch(db, q.searchParam) : undefined;
        const tagWay = q.tags?.length ? await chooseTagFilter(db, who.viewer.companyId, q.tags) : undefined;
        // Tag filters and contact searches: the matches statement (count and page ids), and the page walk only past the cap.
        const matches = readsMatchesFirst(q, way) ? new PgDialect().sqlToQuery(matchesStatement(who.viewer, q, 0)) : undefined;
        const matched = matches ? (await db.execute<{ n: number }>(matchesStatement(who.viewer, q, 0))).rows[0]?.n : undefined;
        const page = matched === undefined || matched > TICKET_COUNT_CAP
          ? walkPageQuery(db, who.viewer, q, way, tagWay ?? 'ticketsFirst', 0).toSQL()
          : undefined;
        // Tag filters and message searches run without parallel workers, as listTickets runs them.
        const client = await pool.connect();
        const plan = await client
          .query('BEGIN')
          .then(() => (way || q.tags?.length ? client.query('SET LOCAL max_parallel_workers_per_gather = 0') : undefined))
          .then(async () => {
            const explain = async (label: string, query: { sql: string; params: unknown[] }) => {
              const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${query.sql}`, query.params);
              return `${label}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`;
            };
            return [matches && (await explain('matches (count and page ids):', matches)), page && (await explain('page walk:', page))].filter(Boolean).join('\n');
          })
          .finally(() => client.query('COMMIT').finally(() => client.release()));
        plans.push(`── ${role} · ${name}${way ? ` (${way})` : ''}${tagWay ? ` (${tagWay})` : ''}\n${plan}`);
      }
    }

    const loadAfter = load();
    // The reference, on the same server right after the scenarios: PostgreSQL's own read transaction.
    const ref = await runPgbench(adminUrl, 2, 15, '-S');
    console.log(
      [
        '',
        `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM (${(freemem() / 2 ** 30).toFixed(0)} GiB free), Node ${process.version}`,
        `database: ${embedded ? 'embedded PostgreSQL (fsync off)' : 'DATABASE_URL'}; ${TICKETS} tickets, ${MESSAGES} messages in one company; up to ${REQUESTS} sequential requests per row after ${WARMUP} warm-up, at most ${SCENARIO_SECONDS} s per row`,
        '',
        '| Caller | Scenario | Tickets on page 1 | n | p50 ms | p95 ms | p99 ms | CPU ms/req Node | CPU ms/req PostgreSQL | p95 ÷ pgbench -S latency |',
        '|---|---|---|---|---|---|---|---|---|---|',
        ...results.map(({ row, p95 }) => `${row} ${ref ? (p95 / ref.latencyMs).toFixed(0) : '—'} |`),
        '',
        ref
          ? `pgbench -S (2 clients, 15 s, same server, after the scenarios): ${ref.tps.toFixed(0)} tps, latency average ${ref.latencyMs.toFixed(3)} ms`
          : 'pgbench: NOT FOUND: no reference ratio',
        `load average (1/5/15 min): before the scenarios ${loadBefore}; after them ${loadAfter}; after pgbench ${load()}`,
      ].join('\n'),
    );
    if (process.env.BENCH_PLANS !== '0') console.log(`\nPage query plans (EXPLAIN ANALYZE):\n\n${plans.join('\n\n')}`);
    await app.close();
    await pool.end();
  } finally {
    if (embedded) await embedded.stop();
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
