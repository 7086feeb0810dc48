import type { WAMessage } from '@whiskeysockets/baileys';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../db/embedded.js';
import { createDb, type Db } from '../../db/client.js';
import { contacts, inboundEvents, messages, tickets } from '../../db/schema/index.js';
import { signBody } from '../../channels/meta/signature.js';
import { createCompanyWithAdmin, createTestDatabase } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { fixture } from '../../../test/fixtures.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { APP_SECRET, messengerText } from '../../../test/fakes/meta-webhook.js';

const SERVER_DIR = resolve(import.meta.dirname, '../../..');
const CUSTOMERS = 4;
const WA_PER_CUSTOMER = 40;
const META_PER_CUSTOMER = 25;

let pool: pg.Pool;
let db: Db;
let graph: FakeGraph;
let databaseUrl: string;
let whatsappId: number;
let metaId: number;
let pageId: string;
const dataDir = mkdtempSync(join(tmpdir(), 'balcao-crash-'));
const children: ChildProcess[] = [];

interface Child {
  proc: ChildProcess;
  port: number;
  output: () => string;
}

async function startServer(): Promise<Child> {
  const port = await freePort();
  const proc = fork('test/crash-server.ts', [], {
    cwd: SERVER_DIR,
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      WA_CONNECTION_ID: String(whatsappId),
      FACEBOOK_APP_ID: '1234567890',
      FACEBOOK_APP_SECRET: APP_SECRET,
      GRAPH_API_URL: graph.url,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  children.push(proc);
  let out = '';
  proc.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise<void>((ok, fail) => {
    proc.on('message', (m: { ready?: boolean }) => m.ready && ok());
    proc.once('exit', (code) => fail(new Error(`server exited (${code}):\n${out}`)));
  });
  return { proc, port, output: () => out };
}

/** A Baileys text as the recorded fixture has it, from customer `c`, numbered `i`. */
function waText(c: number, i: number): WAMessage {
  const msg = structuredClone(fixture<{ messages: WAMessage[] }>('baileys/messages-upsert-text.json').messages[0]!);
  const jid = `55119000000${c}@s.whatsapp.net`;
  msg.key = { remoteJid: jid, fromMe: false, id: `CRASHWA${c}X${String(i).padStart(4, '0')}` };
  msg.pushName = `Cliente ${c}`;
  msg.messageTimestamp = Math.floor(Date.now() / 1000);
  msg.message = { conversation: `wa ${c} #${String(i).padStart(4, '0')}` };
  return msg;
}

async function postSigned(port: number, body: unknown): Promise<number> {
  const raw = JSON.stringify(body);
  const res = await fetch(`http://127.0.0.1:${port}/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(APP_SECRET, raw) },
    body: raw,
  });
  await res.arrayBuffer();
  return res.status;
}

beforeAll(async () => {
  graph = await FakeGraph.start();
  databaseUrl = await createTestDatabase();
  pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  db = createDb(pool);
  const { company } = await createCompanyWithAdmin(db);
  whatsappId = (await createConnection(db, company.id, { channel: 'whatsapp' })).id;
  const meta = await createConnection(db, company.id);
  metaId = meta.id;
  pageId = meta.facebookPageId!;
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await pool?.end();
  await graph?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 during a burst (issue 10 points 5–6, issue 9 point 7)', () => {
  it('stores every acknowledged Baileys message and webhook exactly once, in order per contact, within 5 s of the restart', { timeout: 120_000 }, async () => {
    const first = await startServer();
    const acked = { wa: new Set<string>(), meta: new Set<string>() };
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      first.proc.kill('SIGKILL');
    };
    // Kill once a tenth of the burst was acknowledged (processing trails the acknowledgements): the rest is refused by a dead server.
    const killAt = (CUSTOMERS * (WA_PER_CUSTOMER + META_PER_CUSTOMER)) / 10;
    const maybeKill = () => acked.wa.size + acked.meta.size >= killAt && kill();
    first.proc.on('message', (m: { acked?: string }) => {
      if (m.acked && !killed) {
        acked.wa.add(m.acked);
        maybeKill();
      }
    });
    const upsert: WAMessage[] = [];
    for (let i = 0; i < WA_PER_CUSTOMER; i++) for (let c = 1; c <= CUSTOMERS; c++) upsert.push(waText(c, i));
    first.proc.send({ upsert });
    // Each customer waits for one webhook's 200 before sending the next, as Meta does.
    await Promise.all(
      Array.from({ length: CUSTOMERS }, async (_, k) => {
        for (let i = 0; i < META_PER_CUSTOMER && !killed; i++) {
          const mid = `m_crash_${k}_${String(i).padStart(4, '0')}`;
          const status = await postSigned(first.port, messengerText(pageId, `29000${k}`, mid, `meta ${k} #${String(i).padStart(4, '0')}`)).catch(() => 0);
          if (status !== 200) break;
          if (!killed) acked.meta.add(mid);
          maybeKill();
        }
      }),
    );
    await eventually(async () => killed, 30_000);
    await new Promise((r) => (first.proc.exitCode !== null || first.proc.signalCode ? r(null) : first.proc.once('exit', r)));
    expect(acked.wa.size).toBeGreaterThan(0);
    expect(acked.meta.size).toBeGreaterThan(0);
    // The crash left acknowledged events unprocessed: the restart has something to replay.
    const pending = (await db.select({ n: sql<number>`count(*)::int` }).from(inboundEvents).where(isNull(inboundEvents.processedAt)))[0]!.n;
    expect(pending).toBeGreaterThan(0);

    const second = await startServer();
    const stored = async (whatsapp: number) => db.select({ wid: messages.wid, body: messages.body, contactId: messages.contactId }).from(messages).where(eq(messages.whatsappId, whatsapp)).orderBy(asc(messages.id));
    await eventually(async () => {
      const wids = new Set([...(await stored(whatsappId)), ...(await stored(metaId))].map((m) => m.wid));
      return [...acked.wa, ...acked.meta].every((w) => wids.has(w));
    }, 5_000).catch((err: unknown) => {
      throw new Error(`acknowledged messages missing 5 s after the restart (${pending} events were pending at the kill): ${String(err)}\n${second.output()}`);
    });
    second.proc.kill('SIGKILL');

    for (const whatsapp of [whatsappId, metaId]) {
      const rows = await stored(whatsapp);
      // Exactly once: no wid twice.
      expect(new Set(rows.map((r) => r.wid)).size).toBe(rows.length);
      // In order per contact: each customer's numbers only go up, and one ticket per customer.
      const byContact = new Map<number, number[]>();
      for (const r of rows) byContact.set(r.contactId!, [...(byContact.get(r.contactId!) ?? []), Number(r.body.split('#')[1])]);
      expect(byContact.size).toBe(CUSTOMERS);
      for (const seqs of byContact.values()) expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      for (const contactId of byContact.keys()) {
        const [one] = await db.select({ n: sql<number>`count(*)::int` }).from(tickets).where(and(eq(tickets.contactId, contactId), eq(tickets.whatsappId, whatsapp)));
        expect(one!.n).toBe(1);
      }
    }
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(contacts))[0]!.n).toBe(2 * CUSTOMERS);
  });
});
