// The schedule engine under load (a benchmark, not a test; issue 14 point 4).
// Starts the API and pg-boss in this process (embedded PostgreSQL, or DATABASE_URL), with the
// Meta adapter pointed at the local fake Graph server, then:
//   1. lone schedules: BENCH_LONE schedules made one at a time through `POST /schedules`, each due
//      2 s later; lateness = when the fake Graph received it − its sendAt (p50 / p95 / max);
//   2. a burst: BENCH_SCHEDULES schedules (each its own contact) due within one minute, written in
//      bulk with their pg-boss jobs as `POST /schedules` would queue them; reports how many were
//      sent by the end of the next minute, the lateness, and that each went out exactly once;
//      It also prints the server's CPU time per schedule sent (process.cpuUsage of this process,
//      which runs the API, pg-boss and the fake Graph; PostgreSQL is not counted): unlike sends/s,
//      that figure barely moves with the other processes' load.
//   3. the reference: PostgreSQL's own `pgbench -N` (8 clients) on the same server, with the burst's
//      sends/s as a fraction of its tps, and the load average.
//   npm run bench:schedules
//   BENCH_SCHEDULES=2000 npm run bench:schedules
import { COMPANY_SETTING_DEFAULTS } from '@balcao/contracts';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { and, count, eq, sql } from 'drizzle-orm';
import { parseConfig } from '../apps/server/src/config.js';
import { createDb, createPool } from '../apps/server/src/db/client.js';
import { migrateAndSeed } from '../apps/server/src/db/migrate.js';
import { hashPassword } from '../apps/server/src/db/passwords.js';
import { companies, companySettings, contacts, plans, schedules, users, whatsapps } from '../apps/server/src/db/schema/index.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { startJobs, stopJobs } from '../apps/server/src/jobs/boss.js';
import { registerScheduleJobs } from '../apps/server/src/jobs/schedules.js';
import { registerChannelJobs } from '../apps/server/src/jobs/channels.js';
import { SCHEDULE_SEND_JOB, SCHEDULE_SWEEP_JOB } from '../apps/server/src/modules/schedules/engine.js';
import { generateConnectionToken } from '../apps/server/src/modules/whatsapp/service.js';
import { FakeGraph } from '../apps/server/test/fakes/graph-server.js';
import { benchDatabase } from './database.js';
import { printPgbenchReference } from './pgbench.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const BURST = num('BENCH_SCHEDULES', 10_000);
const LONE = num('BENCH_LONE', 20);
const PGBENCH_SECONDS = num('BENCH_PGBENCH_SECONDS', 30);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' / ');
const PASSWORD = 'bench-password-1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pct(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return `p50 ${at(0.5).toFixed(0)} ms / p95 ${at(0.95).toFixed(0)} ms / max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms`;
}

async function main(): Promise<void> {
  const database = await benchDatabase('schedules');
  const { dataDir, connectionString } = database;
  const graph = await FakeGraph.start();
  // When the fake Graph received each text.
  const receivedAt = new Map<string, number[]>();
  try {
    await migrateAndSeed(connectionString, { adminEmail: 'bench@balcao.local', adminPassword: PASSWORD });
    const config = parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', GRAPH_API_URL: graph.url, RATE_LIMIT_MAX: '10000000', FACEBOOK_APP_SECRET: 'bench-secret' });
    const pool = createPool(connectionString, 20);
    const db = createDb(pool);
    const app = await buildApp({ config, secrets: { jwtSecret: randomBytes(32).toString('hex'), jwtRefreshSecret: randomBytes(32).toString('hex') }, pool });
    const boss = await startJobs(connectionString, app.log);
    app.ctx.boss = boss;
    await registerChannelJobs(boss, app.ctx);
    await registerScheduleJobs(boss, app.ctx);

    const stamp = Date.now();
    const [plan] = await db.insert(plans).values({ name: `Bench ${stamp}`, users: 5, connections: 5 }).returning();
    const [company] = await db.insert(companies).values({ name: `Bench ${stamp}`, planId: plan!.id, dueDate: '2999-01-01' }).returning();
    const companyId = company!.id;
    await db.insert(companySettings).values({ companyId, ...COMPANY_SETTING_DEFAULTS });
    const email = `admin-${stamp}@bench.local`;
    const [admin] = await db.insert(users).values({ companyId, name: 'Bench Admin', email, passwordHash: await hashPassword(PASSWORD), profile: 'admin' }).returning();
    await db.insert(whatsapps).values({ companyId, name: 'Bench Page', channel: 'facebook', status: 'CONNECTED', token: generateConnectionToken(), facebookPageId: '1000001', facebookPageToken: 'bench-page-token', isDefault: true });
    const people = await db
      .insert(contacts)
      .values(Array.from({ length: BURST + LONE }, (_, i) => ({ companyId, channel: 'facebook' as const, name: `Cliente ${i}`, number: `7${stamp % 1e6}${i}`, remoteJid: `7${stamp % 1e6}${i}` })))
      .returning({ id: contacts.id });
    const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } });
    const token = (login.json() as { token: string }).token;

    // The fake Graph's log, read as it grows (every 20–100 ms): when each text arrived.
    let read = 0;
    const collect = () => {
      const now = Date.now();
      for (const r of graph.sends().slice(read)) {
        const text = (r.body as { message?: { text?: string } }).message?.text ?? '';
        const at = receivedAt.get(text) ?? [];
        at.push(now);
        receivedAt.set(text, at);
      }
      read = graph.sends().length;
    };

    console.log(`load average before: ${load()}`);
    // 1. Lone schedules, one at a time.
    const lateness: number[] = [];
    for (let i = 0; i < LONE; i++) {
      const sendAt = Date.now() + 2000;
      const text = `lone ${i} ${stamp}`;
      const res = await app.inject({
        method: 'POST',
        url: '/schedules',
        headers: { authorization: `Bearer ${token}` },
        payload: { contactId: people[BURST + i]!.id, body: text, sendAt: new Date(sendAt).toISOString() },
      });
      if (res.statusCode !== 200) throw new Error(`POST /schedules → ${res.statusCode} ${res.body}`);
      for (let waited = 0; !receivedAt.has(text) && waited < 20_000; waited += 20) {
        await sleep(20);
        collect();
      }
      const at = receivedAt.get(text)?.[0];
      lateness.push(at === undefined ? Number.POSITIVE_INFINITY : at - sendAt);
    }
    console.log(`lone schedule (${LONE}, each due 2 s after creation): lateness ${pct(lateness)}; load ${load()}`);

    // 2. The burst: every schedule due within the next whole minute, with its job, written in bulk.
    const minute = Math.ceil((Date.now() + 15_000) / 60_000) * 60_000;
    const due = people.slice(0, BURST).map((p, i) => ({ contactId: p.id, sendAt: new Date(minute + Math.floor((i / BURST) * 60_000)), text: `burst ${i} ${stamp}` }));
    for (let i = 0; i < due.length; i += 1000) {
      const rows = await db
        .insert(schedules)
        .values(due.slice(i, i + 1000).map((d) => ({ companyId, userId: admin!.id, contactId: d.contactId, body: d.text, sendAt: d.sendAt, plannedAt: d.sendAt })))
        .returning({ id: schedules.id, sendAt: schedules.sendAt });
      await boss.insert(rows.map((r) => ({ name: SCHEDULE_SEND_JOB, data: { id: r.id }, startAfter: r.sendAt, singletonKey: `${r.id}@${r.sendAt.toISOString()}` })));
    }
    const cpuBefore = process.cpuUsage();
    console.log(`burst: ${BURST} schedules due between ${new Date(minute).toISOString()} and +60 s; waiting…`);
    const deadline = minute + 120_000;
    while (Date.now() < deadline) {
      await sleep(100);
      collect();
      const sent = due.filter((d) => receivedAt.has(d.text)).length;
      if (sent === BURST) break;
    }
    collect();
    const cpu = process.cpuUsage(cpuBefore);
    const late: number[] = [];
    let missing = 0;
    let duplicated = 0;
    let last = 0;
    for (const d of due) {
      const at = receivedAt.get(d.text);
      if (!at) {
        missing += 1;
        continue;
      }
      if (at.length > 1) duplicated += 1;
      late.push(at[0]! - d.sendAt.getTime());
      last = Math.max(last, at[0]!);
    }
    const [states] = await db.execute<{ enviada: number; erro: number }>(
      sql`SELECT count(*) FILTER (WHERE status = 'ENVIADA')::int AS enviada, count(*) FILTER (WHERE status = 'ERRO')::int AS erro FROM schedules WHERE company_id = ${companyId}`,
    ).then((r) => r.rows);
    const seconds = (last - minute) / 1000;
    const perSecond = (BURST - missing) / Math.max(seconds, 1);
    console.log(
      [
        `burst: ${BURST - missing} of ${BURST} received by the fake Graph, the last ${seconds.toFixed(1)} s after the minute began` +
          ` (${last <= minute + 120_000 ? 'within' : 'after'} the next minute); ${duplicated} sent twice; ${missing} missing`,
        `burst lateness (received − sendAt): ${pct(late)}; ${perSecond.toFixed(0)} sends/s; rows ENVIADA ${states?.enviada}, ERRO ${states?.erro}; load ${load()}`,
        `burst CPU of this process (API, pg-boss, fake Graph): ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, ${((cpu.user + cpu.system) / 1000 / Math.max(BURST - missing, 1)).toFixed(2)} ms per schedule sent`,
      ].join('\n'),
    );

    // Stop taking jobs, let the sends in flight finish, then shut down.
    await boss.offWork(SCHEDULE_SEND_JOB);
    await boss.offWork(SCHEDULE_SWEEP_JOB);
    // What the window left unsent is withdrawn, or a sweep already running keeps claiming it against the closing pool.
    await db
      .update(schedules)
      .set({ status: 'ERRO', reason: 'bench: withdrawn after the window' })
      .where(and(eq(schedules.companyId, companyId), eq(schedules.status, 'PENDENTE')));
    for (let i = 0; i < 120; i++) {
      const [busy] = await db.select({ n: count() }).from(schedules).where(eq(schedules.status, 'AGENDADA'));
      if (!busy?.n) break;
      await sleep(500);
    }
    await stopJobs(boss);
    // The Graph calls still in flight first: app.close waits on them inside an onClose hook, and
    // under load that outlasted Fastify's plugin timeout (AVV_ERR_READY_TIMEOUT) before pgbench ran.
    await app.ctx.background.drain();
    await app.close();
    await pool.end();

    await printPgbenchReference(database.adminConnectionString, PGBENCH_SECONDS, { label: 'burst sends/s', perSecond }, load);
  } finally {
    await graph.close();
    await database.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
