// Contact import and contact search at scale (a benchmark, not a test).
// Starts the API in this process on the embedded PostgreSQL (or the server at DATABASE_URL):
//  1. imports a BENCH_IMPORT_ROWS-row .xlsx (exceljs) through POST /contacts/upload (app.inject:
//     multipart, parsing, numbers, upserts, progress events), twice: the second must create 0;
//  2. seeds BENCH_CONTACTS contacts into a search company with set-based SQL, ANALYZEs, and times
//     BENCH_REQUESTS sequential GET /contacts searches per term (name, number, e-mail, nothing);
//  3. runs pgbench -S (reads: the searches' reference) and -N (writes: the import's) on the same server.
//   npm run bench:contacts
//   BENCH_DATA_DIR=/tmp/balcao-contacts BENCH_IMPORT_ROWS=0 npm run bench:contacts   (searches only, seed kept)
// With BENCH_DATA_DIR the search company (named for BENCH_CONTACTS) is seeded once and reused; the import
// always goes to a fresh company, so its figures stay those of a first and a second import.
import { COMPANY_SETTING_DEFAULTS } from '@balcao/contracts';
import ExcelJS from 'exceljs';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseConfig } from '../apps/server/src/config.js';
import { createDb, createPool } from '../apps/server/src/db/client.js';
import { migrateAndSeed } from '../apps/server/src/db/migrate.js';
import { hashPassword } from '../apps/server/src/db/passwords.js';
import { eq } from 'drizzle-orm';
import { companies, companySettings, plans, users } from '../apps/server/src/db/schema/index.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { multipart } from '../apps/server/test/multipart.js';
import { cpuMeter, perUnit } from './cpu.js';
import { benchDatabase } from './database.js';
import { runPgbench } from './pgbench.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const IMPORT_ROWS = num('BENCH_IMPORT_ROWS', 10_000);
const CONTACTS = num('BENCH_CONTACTS', 1_000_000);
const REQUESTS = num('BENCH_REQUESTS', 100);
const PASSWORD = 'bench-password-1';

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');

async function importFile(rows: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  sheet.addRow(['Nome', 'Telefone', 'Email', 'Tags']);
  for (let i = 0; i < rows; i++) {
    sheet.addRow([`Cliente Planilha ${i}`, `(11) 9${String(10_000_000 + i).slice(-8, -4)}-${String(i).padStart(4, '0').slice(-4)}`, `cliente${i}@planilha.test`, i % 10 === 0 ? 'Planilha, VIP' : 'Planilha']);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A company with its admin, logged in: the import gets a fresh one each run, the search one is kept (BENCH_DATA_DIR). */
async function companyWithAdmin(db: ReturnType<typeof createDb>, app: Awaited<ReturnType<typeof buildApp>>, name: string) {
  const [found] = await db.select().from(companies).where(eq(companies.name, name));
  let companyId = found?.id;
  if (companyId === undefined) {
    const [plan] = await db.insert(plans).values({ name: `${name} plan`, users: 2, connections: 1, queues: 1 }).returning();
    const [company] = await db.insert(companies).values({ name, planId: plan!.id, dueDate: '2999-01-01' }).returning();
    companyId = company!.id;
    await db.insert(companySettings).values({ companyId, ...COMPANY_SETTING_DEFAULTS });
    await db.insert(users).values({ companyId, name: 'Bench admin', email: `admin-${companyId}@bench.local`, passwordHash: await hashPassword(PASSWORD), profile: 'admin' });
  }
  const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: `admin-${companyId}@bench.local`, password: PASSWORD } });
  if (login.statusCode !== 200) throw new Error(`login of company ${companyId} → ${login.statusCode} ${login.body}`);
  return { companyId, auth: { authorization: `Bearer ${(login.json() as { token: string }).token}` } };
}

async function main(): Promise<void> {
  const database = await benchDatabase('contacts');
  await migrateAndSeed(database.connectionString, { adminEmail: 'bench@balcao.local', adminPassword: PASSWORD });
  const pool = createPool(database.connectionString, 10);
  const config = parseConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '10000000', LOGIN_MAX_PER_IP: '100000', LOGIN_MAX_PER_EMAIL: '100000' });
  const secrets = { jwtSecret: randomBytes(32).toString('hex'), jwtRefreshSecret: randomBytes(32).toString('hex') };
  const db = createDb(pool);
  const app = await buildApp({ config, secrets, pool });
  await app.ready();
  try {
    console.log(`load average at start: ${load()}`);
    if (IMPORT_ROWS > 0) {
      const { auth } = await companyWithAdmin(db, app, `Bench contacts import ${Date.now()}`);
      const file = await importFile(IMPORT_ROWS);
      console.log(`import file: ${IMPORT_ROWS} rows, ${(file.length / 1024).toFixed(0)} KiB`);
      for (const round of ['first', 'second']) {
        const form = multipart({}, { field: 'file', name: 'contatos.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', data: file });
        const t0 = performance.now();
        const cpu = cpuMeter(database.postmasterPid);
        const res = await app.inject({ method: 'POST', url: '/contacts/upload', headers: { ...auth, ...form.headers }, payload: form.payload });
        const seconds = (performance.now() - t0) / 1000;
        console.log(`import (${round}): ${res.statusCode} ${res.body} in ${seconds.toFixed(2)} s (${(IMPORT_ROWS / seconds).toFixed(0)} rows/s), ${perUnit(cpu.stop(), IMPORT_ROWS, 'row')}, load ${load()}`);
      }
    }

    // The search company is named for its size: a kept cluster reuses it.
    const search = await companyWithAdmin(db, app, `Bench contacts search ${CONTACTS}`);
    const seededBefore = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM contacts WHERE company_id = $1', [search.companyId])).rows[0]?.n ?? 0;
    if (seededBefore >= CONTACTS) console.log(`reusing the ${seededBefore} contacts of company ${search.companyId}`);
    else {
      console.log(`seeding ${CONTACTS} contacts…`);
      const t0 = performance.now();
      await pool.query(
        `INSERT INTO contacts (company_id, channel, name, number, remote_jid, email)
         SELECT $1, 'whatsapp', (ARRAY['Maria','Ana','Jose','Joao','Carla','Paulo','Lucas','Julia'])[1 + i % 8] || ' ' ||
                (ARRAY['Silva','Santos','Oliveira','Souza','Lima','Costa','Ribeiro','Alves','Gomes','Rocha'])[1 + (i / 8) % 10] || ' ' || i,
                '55' || (11 + i % 89)::text || '9' || lpad((i::bigint * 7919 % 100000000)::text, 8, '0'),
                '55' || (11 + i % 89)::text || '9' || lpad((i::bigint * 7919 % 100000000)::text, 8, '0') || '@s.whatsapp.net',
                'contato' || i || '@exemplo.com.br'
         FROM generate_series(1, $2::int) i
         ON CONFLICT DO NOTHING`,
        [search.companyId, CONTACTS],
      );
      await pool.query('VACUUM ANALYZE contacts');
      console.log(`  seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }

    const rows: string[] = [];
    const p95s: [string, number][] = [];
    for (const [label, term] of [
      ['name substring', 'oliveira'],
      ['first name', 'maria'],
      ['rare name', `santos ${Math.floor(CONTACTS / 2) + 1}`],
      ['number fragment', '(21) 9123'],
      ['number prefix', '5521'],
      ['e-mail', `contato${Math.floor(CONTACTS / 3)}@`],
      ['no match', 'zzqx'],
      ['no search, page 1', ''],
      ['name substring, page 5', 'oliveira&pageNumber=5'],
    ] as const) {
      const [text, extra] = term.split('&');
      const url = `/contacts?searchParam=${encodeURIComponent(text!)}${extra ? `&${extra}` : '&pageNumber=1'}`;
      for (let i = 0; i < 5; i++) await app.inject({ method: 'GET', url, headers: search.auth });
      const times: number[] = [];
      let count = 0;
      const cpu = cpuMeter(database.postmasterPid);
      for (let i = 0; i < REQUESTS; i++) {
        const s = performance.now();
        const res = await app.inject({ method: 'GET', url, headers: search.auth });
        times.push(performance.now() - s);
        if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body}`);
        count = (res.json() as { count: number }).count;
      }
      const spent = cpu.stop();
      times.sort((a, b) => a - b);
      p95s.push([label, percentile(times, 0.95)]);
      rows.push(`| ${label} (\`${term}\`) | ${count} | ${percentile(times, 0.5).toFixed(1)} ms | ${percentile(times, 0.95).toFixed(1)} ms | ${perUnit(spent, REQUESTS, 'request')} |`);
    }
    const searchLoad = load();
    const total = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM contacts WHERE company_id = $1', [search.companyId])).rows[0]?.n;
    console.log(`\nGET /contacts over ${total} contacts of one company, ${REQUESTS} sequential requests each (load ${searchLoad}):`);
    console.log('| Search | count | p50 | p95 | CPU |\n|---|---|---|---|---|');
    for (const row of rows) console.log(row);

    const reads = await runPgbench(database.adminConnectionString, 2, 15, '-S');
    if (reads) {
      console.log(`\npgbench -S (2 clients, 15 s): ${reads.tps.toFixed(0)} tps, latency average ${reads.latencyMs.toFixed(3)} ms; load ${load()}`);
      for (const [label, p95] of p95s) console.log(`  ${label}: p95 = ${(p95 / reads.latencyMs).toFixed(0)} × pgbench -S latency`);
    } else console.log('\npgbench: NOT FOUND');
    if (IMPORT_ROWS > 0) {
      const writes = await runPgbench(database.adminConnectionString, 8, 15);
      if (writes) console.log(`pgbench -N (8 clients, 15 s): ${writes.tps.toFixed(0)} tps, load ${load()} (the import's rows/s ÷ this tps is the import's ratio)`);
    }
  } finally {
    await app.close();
    await pool.end();
    await database.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
