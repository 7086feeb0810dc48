// The campaign engine under load (a benchmark, not a test; issue 17 "Performance").
// Starts the API and pg-boss in this process (embedded PostgreSQL, or DATABASE_URL), with the
// Meta adapter pointed at the local fake Graph server, then runs one campaign of BENCH_CONTACTS
// list items (page-scoped ids) with every hour and day open, and reports numbers sent twice and
// numbers missing, plus:
// - throughput (BENCH_INTERVAL 0, the default): messages/s received by the fake Graph (first to
//   last) and the CPU per message of this process and of PostgreSQL; then PostgreSQL's own
//   `pgbench -N` on the same server as the reference, and the load average;
// - pacing (BENCH_INTERVAL > 0, real clock): the interval between consecutive sends as the fake
//   Graph received them against the one the settings ask for (`messageInterval`, and
//   `greaterInterval` after every `longerIntervalAfter`), and the largest deviation.
//   npm run bench:campaigns
//   BENCH_CONTACTS=2000 npm run bench:campaigns
//   BENCH_INTERVAL=2 BENCH_LONGER_AFTER=3 BENCH_GREATER=5 BENCH_CONTACTS=10 npm run bench:campaigns
import { COMPANY_SETTING_DEFAULTS } from '@balcao/contracts';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseConfig } from '../apps/server/src/config.js';
import { createDb, createPool } from '../apps/server/src/db/client.js';
import { migrateAndSeed } from '../apps/server/src/db/migrate.js';
import { campaignSettings, campaigns, companies, companySettings, contactListItems, contactLists, plans, whatsapps } from '../apps/server/src/db/schema/index.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { startJobs, stopJobs } from '../apps/server/src/jobs/boss.js';
import { registerCampaignJobs } from '../apps/server/src/jobs/campaigns.js';
import { registerChannelJobs } from '../apps/server/src/jobs/channels.js';
import { wakeCampaign } from '../apps/server/src/modules/campaigns/engine.js';
import { generateConnectionToken } from '../apps/server/src/modules/whatsapp/service.js';
import { FakeGraph } from '../apps/server/test/fakes/graph-server.js';
import { cpuMeter, perUnit } from './cpu.js';
import { benchDatabase } from './database.js';
import { printPgbenchReference } from './pgbench.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const INTERVAL = num('BENCH_INTERVAL', 0);
const LONGER_AFTER = num('BENCH_LONGER_AFTER', 3);
const GREATER = num('BENCH_GREATER', 5);
const CONTACTS = num('BENCH_CONTACTS', INTERVAL > 0 ? 10 : 10_000);
const PGBENCH_SECONDS = num('BENCH_PGBENCH_SECONDS', 30);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' / ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const database = await benchDatabase('campaigns');
  const { dataDir, connectionString } = database;
  const graph = await FakeGraph.start();
  try {
    await migrateAndSeed(connectionString, { adminEmail: 'bench@balcao.local', adminPassword: 'bench-password-1' });
    const config = parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', GRAPH_API_URL: graph.url, RATE_LIMIT_MAX: '10000000', FACEBOOK_APP_SECRET: 'bench-secret' });
    const pool = createPool(connectionString, 20);
    const db = createDb(pool);
    const app = await buildApp({ config, secrets: { jwtSecret: randomBytes(32).toString('hex'), jwtRefreshSecret: randomBytes(32).toString('hex') }, pool });
    const boss = await startJobs(connectionString, app.log);
    app.ctx.boss = boss;
    await registerChannelJobs(boss, app.ctx);
    await registerCampaignJobs(boss, app.ctx);

    const stamp = Date.now();
    const [plan] = await db.insert(plans).values({ name: `Bench ${stamp}`, users: 5, connections: 5 }).returning();
    const [company] = await db.insert(companies).values({ name: `Bench ${stamp}`, planId: plan!.id, dueDate: '2999-01-01' }).returning();
    const companyId = company!.id;
    await db.insert(companySettings).values({ companyId, ...COMPANY_SETTING_DEFAULTS });
    const [page] = await db
      .insert(whatsapps)
      .values({ companyId, name: 'Bench Page', channel: 'facebook', status: 'CONNECTED', token: generateConnectionToken(), facebookPageId: '1000001', facebookPageToken: 'bench-page-token', isDefault: true })
      .returning();
    const pacing = INTERVAL > 0 ? { longerIntervalAfter: String(LONGER_AFTER), greaterInterval: String(GREATER) } : {};
    const open = { messageInterval: String(INTERVAL), ...pacing, startHour: '00:00', endHour: '23:59', sabado: 'true', domingo: 'true' };
    await db.insert(campaignSettings).values(Object.entries(open).map(([key, value]) => ({ companyId, key, value })));
    const [list] = await db.insert(contactLists).values({ companyId, name: 'Bench list' }).returning();
    const numbers = Array.from({ length: CONTACTS }, (_, i) => `61${String(stamp % 1e6).padStart(6, '0')}${String(i).padStart(6, '0')}`);
    for (let i = 0; i < numbers.length; i += 1000) {
      await db.insert(contactListItems).values(numbers.slice(i, i + 1000).map((number, k) => ({ companyId, contactListId: list!.id, name: `Cliente ${i + k}`, number })));
    }

    console.log(`load average before: ${load()}`);
    const cpu = cpuMeter(database.postmasterPid);
    const started = Date.now();
    const [campaign] = await db
      .insert(campaigns)
      .values({ companyId, name: 'Bench', status: 'PROGRAMADA', scheduledAt: new Date(started), nextRunAt: new Date(started), contactListId: list!.id, whatsappId: page!.id, message1: 'Oferta para {nome}' })
      .returning();
    await wakeCampaign(app.ctx, campaign!);

    const received = new Map<string, number>();
    let read = 0;
    let last = started;
    while (Date.now() - started < 15 * 60_000) {
      await sleep(100);
      const sends = graph.sends();
      for (const r of sends.slice(read)) {
        const to = (r.body as { recipient?: { id?: string } }).recipient?.id ?? '';
        received.set(to, (received.get(to) ?? 0) + 1);
        last = Date.now();
      }
      read = sends.length;
      if (received.size >= CONTACTS) break;
    }
    const spent = cpu.stop();
    const seconds = (last - started) / 1000;
    const delivered = numbers.filter((n) => received.has(n)).length;
    const twice = numbers.filter((n) => (received.get(n) ?? 0) > 1).length;
    const perSecond = delivered / Math.max(seconds, 0.001);
    console.log(
      `campaign of ${CONTACTS} (messageInterval ${INTERVAL}): ${delivered} received by the fake Graph in ${seconds.toFixed(1)} s = ${perSecond.toFixed(1)} msg/s; ` +
        `${twice} sent twice; ${CONTACTS - delivered} missing; load ${load()}`,
    );
    console.log(`  ${perUnit(spent, delivered, 'message')}`);
    if (INTERVAL > 0) reportPacing(graph.sends().map((r) => r.at));

    await stopJobs(boss);
    await app.close();
    await pool.end();
    if (INTERVAL === 0) await printPgbenchReference(database.adminConnectionString, PGBENCH_SECONDS, { label: 'campaign msg/s', perSecond }, load);
  } finally {
    await graph.close();
    await database.stop();
  }
}

/** Each interval between two sends against the settings' (after the k-th message: greaterInterval when k is a multiple of longerIntervalAfter). */
function reportPacing(at: number[]): void {
  const sorted = [...at].sort((a, b) => a - b);
  const rows = sorted.slice(1).map((t, i) => {
    const expected = LONGER_AFTER > 0 && GREATER > 0 && (i + 1) % LONGER_AFTER === 0 ? GREATER : INTERVAL;
    return { k: i + 1, measured: (t - sorted[i]!) / 1000, expected };
  });
  for (const r of rows) console.log(`  after message ${r.k}: ${r.measured.toFixed(2)} s (settings ${r.expected} s, ${(r.measured - r.expected >= 0 ? '+' : '') + (r.measured - r.expected).toFixed(2)} s)`);
  const deviations = rows.map((r) => Math.abs(r.measured - r.expected));
  console.log(
    `pacing (messageInterval ${INTERVAL} s, greaterInterval ${GREATER} s after every ${LONGER_AFTER}): ${rows.length} intervals, ` +
      `max deviation ${Math.max(...deviations).toFixed(2)} s, mean ${(deviations.reduce((a, b) => a + b, 0) / Math.max(rows.length, 1)).toFixed(2)} s`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
