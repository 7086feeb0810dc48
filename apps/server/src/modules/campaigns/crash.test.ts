import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../db/client.js';
import { campaignSettings, campaigns, contactListItems, contactLists } from '../../db/schema/index.js';
import { createCompanyWithAdmin, createTestDatabase } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { APP_SECRET } from '../../../test/fakes/meta-webhook.js';

const SERVER_DIR = resolve(import.meta.dirname, '../../..');
const CONTACTS = 300;

let pool: pg.Pool;
let db: Db;
let graph: FakeGraph;
let databaseUrl: string;
const dataDir = mkdtempSync(join(tmpdir(), 'balcao-campaign-crash-'));
const children: ChildProcess[] = [];

async function startWorkers(): Promise<ChildProcess> {
  const proc = fork('test/campaign-server.ts', [], {
    cwd: SERVER_DIR,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, FACEBOOK_APP_ID: '1234567890', FACEBOOK_APP_SECRET: APP_SECRET, GRAPH_API_URL: graph.url },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  children.push(proc);
  let out = '';
  proc.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise<void>((ok, fail) => {
    proc.on('message', (m: { ready?: boolean }) => m.ready && ok());
    proc.once('exit', (code) => fail(new Error(`workers exited (${code}):\n${out}`)));
  });
  return proc;
}

beforeAll(async () => {
  graph = await FakeGraph.start();
  databaseUrl = await createTestDatabase();
  pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  db = createDb(pool);
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await pool?.end();
  await graph?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 mid-campaign', () => {
  it('stores each number’s message exactly once and finishes after a restart', { timeout: 480_000 }, async () => {
    const { company } = await createCompanyWithAdmin(db);
    const companyId = company.id;
    const page = await createConnection(db, companyId);
    const open = { messageInterval: '0', startHour: '00:00', endHour: '23:59', sabado: 'true', domingo: 'true' };
    await db.insert(campaignSettings).values(Object.entries(open).map(([key, value]) => ({ companyId, key, value })));
    const [list] = await db.insert(contactLists).values({ companyId, name: 'Crash' }).returning();
    const numbers = Array.from({ length: CONTACTS }, (_, i) => `6200000${String(i).padStart(6, '0')}`);
    await db.insert(contactListItems).values(numbers.map((number, i) => ({ companyId, contactListId: list!.id, name: `C ${i}`, number })));

    const [campaign] = await db
      .insert(campaigns)
      .values({ companyId, name: 'Crash', status: 'PROGRAMADA', scheduledAt: new Date(), nextRunAt: new Date(), contactListId: list!.id, whatsappId: page.id, message1: 'Oi {nome}' })
      .returning();
    // Due already: the workers' sweep at boot starts it.
    const first = await startWorkers();
    const delivered = async () =>
      (await pool.query<{ n: number }>('SELECT count(delivered_at)::int AS n FROM campaign_shipping WHERE campaign_id = $1', [campaign!.id])).rows[0]!.n;
    // Killed as soon as the first batch is stored.
    await eventually(async () => (await delivered()) > 0, 60_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const atKill = await delivered();

    // The campaign's lease lapses (60 s); the restarted workers' sweep picks it up. Skip the wait.
    await db.update(campaigns).set({ nextRunAt: new Date() }).where(eq(campaigns.id, campaign!.id));
    await startWorkers();
    await eventually(async () => (await db.select().from(campaigns).where(eq(campaigns.id, campaign!.id)))[0]!.status === 'FINALIZADA', 180_000).catch(async (err: unknown) => {
      throw new Error(`not FINALIZADA: ${await delivered()} of ${CONTACTS} marked`, { cause: err });
    });
    expect(atKill).toBeGreaterThan(0);

    const perNumber = await db.execute<{ number: string; messages: number }>(sql`
      SELECT s.number, count(m.id)::int AS messages FROM campaign_shipping s
      LEFT JOIN messages m ON m.ticket_id = s.ticket_id AND m.from_me
      WHERE s.campaign_id = ${campaign!.id} GROUP BY s.number`);
    expect(perNumber.rows).toHaveLength(CONTACTS);
    expect(perNumber.rows.filter((r) => r.messages !== 1)).toEqual([]);
    // The Graph side (each stored message sent) is the outbox's guarantee (modules/conversations/crash.test.ts); here at least the restart's sends arrive.
    await eventually(async () => graph.sends().length > 0, 60_000);
    // And none twice: a batch the kill interrupted is not sent again after the restart (outbound-deliver-batch.ts).
    const recipients = graph.sends().map((r) => (r.body as { recipient?: { id?: string } }).recipient?.id);
    expect(recipients.filter((id, i) => recipients.indexOf(id) !== i)).toEqual([]);
  });
});
