import type { AppMessageEventPayload } from '@balcao/contracts';
import { BufferJSON, initAuthCreds } from '@whiskeysockets/baileys';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../src/channels/meta/signature.js';
import { createDb, type Db } from '../src/db/client.js';
import { freePort } from '../src/db/embedded.js';
import { messages, whatsappSessionLeases, whatsappSessions, whatsapps } from '../src/db/schema/index.js';
import { createConnection, eventually } from './connections.js';
import { FakeGraph } from './fakes/graph-server.js';
import { APP_SECRET, messengerText } from './fakes/meta-webhook.js';
import { collect, connectSocket, createCompanyWithAdmin, createTestDatabase, nextEvent, sleep } from './helpers.js';
import { hasRedisServer, NO_REDIS_MESSAGE, startRedisServer, type RedisServer } from './redis-server.js';
import { createContact, createTicketRow } from './tickets.js';

/**
 * Issue 19: two real API processes (test/node-server.ts) on one database and one
 * redis-server. A webhook posted to node A reaches the agent whose socket is on node B;
 * the WhatsApp session runs on one node only, sends queued on the other node go out
 * through it; killing it moves the session to node B (stored auth state, no QR) and the
 * sends queued meanwhile go out exactly once.
 */

if (!hasRedisServer) console.warn(`two-node test ${NO_REDIS_MESSAGE}`);

const SERVER_DIR = resolve(import.meta.dirname, '..');

interface Node {
  proc: ChildProcess;
  port: number;
  nodeId: string;
  output: () => string;
}
interface Sent {
  node: string;
  text?: string;
}

describe.skipIf(!hasRedisServer)('two API nodes, one database, one Redis', () => {
  let redis: RedisServer;
  let graph: FakeGraph;
  let pool: pg.Pool;
  let db: Db;
  let databaseUrl: string;
  let companyId: number;
  let admin: { email: string; password: string };
  let whatsappId: number;
  let pageId: string;
  let ticketId: number;
  const dataDir = mkdtempSync(join(tmpdir(), 'balcao-nodes-'));
  const children: ChildProcess[] = [];
  const sockets: Socket[] = [];
  const sent: Sent[] = [];

  async function startNode(name: string): Promise<Node> {
    const port = await freePort();
    const proc = fork('test/node-server.ts', [], {
      cwd: SERVER_DIR,
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        REDIS_URL: redis.url,
        DATA_DIR: dataDir,
        PORT: String(port),
        FACEBOOK_APP_ID: '1234567890',
        FACEBOOK_APP_SECRET: APP_SECRET,
        GRAPH_API_URL: graph.url,
        LOGIN_MAX_PER_IP: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    children.push(proc);
    let out = '';
    proc.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    proc.on('message', (m: { sent?: { text?: string } }) => m.sent && sent.push({ node: name, text: m.sent.text }));
    const nodeId = await new Promise<string>((ok, fail) => {
      proc.on('message', (m: { ready?: boolean; nodeId?: string }) => m.ready && ok(m.nodeId!));
      proc.once('exit', (code) => fail(new Error(`node ${name} exited (${code}):\n${out}`)));
    });
    return { proc, port, nodeId, output: () => out };
  }

  async function api<T>(node: Node, method: string, url: string, token?: string, body?: unknown): Promise<{ status: number; json: T }> {
    const res = await fetch(`http://127.0.0.1:${node.port}${url}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json().catch(() => null)) as T };
  }

  const leaseHolder = async () => (await db.select().from(whatsappSessionLeases).where(eq(whatsappSessionLeases.whatsappId, whatsappId)))[0]?.nodeId;
  const sentTexts = (node?: string) => sent.filter((s) => !node || s.node === node).map((s) => s.text);

  beforeAll(async () => {
    redis = await startRedisServer();
    graph = await FakeGraph.start();
    databaseUrl = await createTestDatabase();
    pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
    db = createDb(pool);
    const own = await createCompanyWithAdmin(db);
    companyId = own.company.id;
    admin = own;
    const wa = await createConnection(db, companyId, { channel: 'whatsapp', status: 'DISCONNECTED' });
    whatsappId = wa.id;
    // A paired session: its credentials are stored, so any node resumes it without a QR.
    await db.insert(whatsappSessions).values({ whatsappId, key: 'creds', value: JSON.stringify(initAuthCreds(), BufferJSON.replacer) });
    pageId = (await createConnection(db, companyId)).facebookPageId!;
    const contact = await createContact(db, companyId, { channel: 'whatsapp', number: '5511955550001', remoteJid: '5511955550001@s.whatsapp.net' });
    ticketId = (await createTicketRow(db, { companyId, contactId: contact.id, whatsappId, channel: 'whatsapp', status: 'open' })).id;
  });

  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const c of children) if (c.exitCode === null && !c.signalCode) c.kill('SIGKILL');
    await pool?.end();
    await graph?.close();
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers across nodes, runs the session on one node, and moves it with its queued sends when that node dies', { timeout: 150_000 }, async () => {
    const a = await startNode('A');
    await eventually(async () => (await leaseHolder()) === a.nodeId, 10_000);
    const b = await startNode('B');

    // The agent logs in through node A and listens on node B.
    const session = await api<{ token: string; user: { id: number } }>(a, 'POST', '/auth/login', undefined, { email: admin.email, password: admin.password });
    expect(session.status).toBe(200);
    const socket = connectSocket(b.port, companyId, { userId: String(session.json.user.id), token: `Bearer ${session.json.token}` });
    sockets.push(socket);
    await nextEvent(socket, 'connect');
    await sleep(300);
    const heard = collect<AppMessageEventPayload>(socket, `company-${companyId}-appMessage`);

    // A webhook posted to node A reaches the socket on node B.
    const raw = JSON.stringify(messengerText(pageId, '4200001', 'm_two_nodes_1', 'olá de outro nó'));
    const hook = await fetch(`http://127.0.0.1:${a.port}/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(APP_SECRET, raw) },
      body: raw,
    });
    expect(hook.status).toBe(200);
    await eventually(async () => heard.find((p) => p.action === 'create' && p.message.body === 'olá de outro nó'), 10_000);

    // The session runs on A only: a message typed on node B goes out through A's socket.
    expect(await leaseHolder()).toBe(a.nodeId);
    const before = await api(b, 'POST', `/messages/${ticketId}`, session.json.token, { body: 'antes da queda' });
    expect(before.status).toBe(200);
    await eventually(async () => sentTexts().includes('antes da queda'), 10_000);
    expect(sentTexts('B')).toEqual([]);
    await eventually(async () => heard.find((p) => p.action === 'update' && p.message.body === 'antes da queda' && p.message.ack >= 1), 10_000);

    // A dies: the sends typed on B meanwhile wait for the session, then go out through B once it took it over.
    a.proc.kill('SIGKILL');
    const killedAt = Date.now();
    const queued = ['depois 1', 'depois 2', 'depois 3'];
    for (const body of queued) expect((await api(b, 'POST', `/messages/${ticketId}`, session.json.token, { body })).status).toBe(200);
    await eventually(async () => (await leaseHolder()) === b.nodeId, 30_000);
    const tookOverMs = Date.now() - killedAt;
    expect(tookOverMs).toBeLessThan(30_000);
    await eventually(async () => queued.every((body) => sentTexts('B').includes(body)), 10_000);
    await sleep(2_000);
    for (const body of [...queued, 'antes da queda']) expect(sentTexts().filter((t) => t === body), body).toHaveLength(1);
    const rows = await db.select({ body: messages.body, sendStatus: messages.sendStatus }).from(messages).where(inArray(messages.body, queued));
    expect(rows.map((r) => r.sendStatus)).toEqual(['sent', 'sent', 'sent']);
    // Resumed from the stored credentials: no QR was ever shown.
    const [connection] = await db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId));
    expect(connection).toMatchObject({ status: 'CONNECTED', qrcode: '' });
    console.info(`two-node test: session taken over ${tookOverMs} ms after the kill`);
  });
});
