import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../src/db/client.js';
import { freePort } from '../src/db/embedded.js';
import { contacts, messages, tickets } from '../src/db/schema/index.js';
import { createConnection, eventually } from './connections.js';
import { FakeGraph } from './fakes/graph-server.js';
import { metaEnv } from './fakes/meta-webhook.js';
import { createCompanyWithAdmin, createTestDatabase, sleep } from './helpers.js';

const SERVER_DIR = resolve(import.meta.dirname, '..');
const BURST = 30;

let graph: FakeGraph;
let pool: pg.Pool;
let db: Db;
let databaseUrl: string;
let ticketId: number;
let admin: { email: string; password: string };
const dataDir = mkdtempSync(join(tmpdir(), 'balcao-drain-'));
const children: ChildProcess[] = [];

interface Running {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** The product itself (src/main.ts) on the test database: the pid we signal is the server. */
async function startProduct(): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      ...metaEnv(graph.url),
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      SERVE_WEB: 'false',
      WHATSAPP_SESSIONS: 'false',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'drain-access-secret-'.padEnd(48, 'x'),
      JWT_REFRESH_SECRET: 'drain-refresh-secret-'.padEnd(48, 'y'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`product exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`not ready within 60 s:\n${out}`);
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status, () => 0);
    if (status === 200) return { child, port, output: () => out, exited };
    await sleep(200);
  }
}

beforeAll(async () => {
  graph = await FakeGraph.start();
  databaseUrl = await createTestDatabase();
  pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  db = createDb(pool);
  const c = await createCompanyWithAdmin(db);
  admin = c;
  const conn = await createConnection(db, c.company.id);
  const [contact] = await db.insert(contacts).values({ companyId: c.company.id, channel: 'facebook', name: 'Maria', number: '2000001', remoteJid: '2000001' }).returning();
  const [ticket] = await db
    .insert(tickets)
    .values({ companyId: c.company.id, contactId: contact!.id, whatsappId: conn.id, channel: 'facebook', status: 'open', userId: c.admin.id })
    .returning();
  ticketId = ticket!.id;
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await pool?.end();
  await graph?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('graceful drain on SIGTERM (issue 19 point 2)', () => {
  it('stops routing at once, finishes the sends in flight exactly once, exits 0 without touching an ended pool', { timeout: 150_000 }, async () => {
    // Slow sends: SIGTERM arrives while several are in flight.
    graph.sendDelayMs = 400;
    const first = await startProduct();
    const base = `http://127.0.0.1:${first.port}`;
    const loginRes = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin.email, password: admin.password }),
    });
    expect(loginRes.status).toBe(200);
    const { token } = (await loginRes.json()) as { token: string };

    const post = (i: number) =>
      fetch(`${base}/messages/${ticketId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ body: `drain #${i}` }),
      }).then(
        (r) => r.status,
        () => 0,
      );
    const burst: Promise<number>[] = [];
    for (let i = 0; i < BURST; i++) {
      burst.push(post(i));
      await sleep(15);
    }
    // Stop once some sends are queued behind one in flight (a ticket's sends go one at a time, each
    // held 400 ms by the slow Graph). Under load the server may have stored only the first post by
    // now, so wait for that moment rather than assume it.
    await eventually(async () => {
      const queued = await db.select({ id: messages.id }).from(messages).where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, true)));
      return queued.length > graph.sends().length;
    }, 10_000);
    first.child.kill('SIGTERM');
    // A balancer probing now is told to stop routing here (or finds the port already closed),
    // as soon as the signal is handled.
    let probe = 200;
    for (const until = Date.now() + 2_000; probe === 200 && Date.now() < until; ) probe = await fetch(`${base}/readyz`).then((r) => r.status, () => 0);
    expect([503, 0]).toContain(probe);

    const statuses = await Promise.all(burst);
    expect(await first.exited, first.output()).toBe(0);
    expect(first.output()).not.toContain('Cannot use a pool after calling end');
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);

    // Every send the server took is out, each exactly once — before the process ended.
    const rows = await db.select().from(messages).where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, true)));
    expect(rows.length).toBeGreaterThanOrEqual(statuses.filter((s) => s === 200).length);
    expect(rows.filter((r) => r.sendStatus !== 'sent').map((r) => r.body)).toEqual([]);
    const sentTexts = graph.sends().map((s) => (s.body as { message?: { text?: string } }).message?.text);
    expect(sentTexts.sort()).toEqual(rows.map((r) => r.body).sort());

    // A restart sends none of them again.
    graph.sendDelayMs = 0;
    const second = await startProduct();
    await sleep(1_500);
    expect(graph.sends().length).toBe(rows.length);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
