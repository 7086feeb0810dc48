// The load side of bench/ingest.ts: agent sockets, webhook bursts and the steady phase. Runs in
// the bench's process, or (BENCH_CLIENT_PROCESS=1) in a child process of its own, as pgbench's
// clients do, so that posting, signing and decoding socket frames do not share the server's thread.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { io, type Socket } from 'socket.io-client';
import { signBody } from '../apps/server/src/channels/meta/signature.js';
import { webhookBody } from '../apps/server/tools/simulate.js';

export interface ClientsInput {
  api: string;
  companyId: number;
  agents: { id: number; email: string }[];
  password: string;
  secret: string;
  page: string;
  messages: number;
  concurrency: number;
  senders: number;
  warmup: number;
  rate: number;
  steadySeconds: number;
  /** Only the burst's posts are timed (the server's processing is paused): no socket is awaited. */
  acksOnly?: boolean;
}

interface Phase {
  totalMs: number;
  latencies: number[];
  missing: number;
}

export interface ClientsResult {
  burst: Phase & { postedMs: number; refused: number; /** This side's CPU ms (user + system) over the burst's posts, and until its last message was seen (the sockets' frames). */ clientCpuMs: number; clientBurstCpuMs: number };
  steady: Phase & { refused: number };
  deliveries: number;
  /** Per message id: when it was posted and when its post was acknowledged (ms, this side's clock). */
  sentAt: [string, number][];
  ackedAt: [string, number][];
  /** Per message id: when the first agent socket had it. */
  firstSeenAt: [string, number][];
  /** performance.timeOrigin of this side: its clock read as the server's (`timeOrigin + t`). */
  timeOrigin: number;
  loadBefore: string;
  loadAfterBurst: string;
  loadAfterSteady: string;
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' / ');

/** A phase edge, told to the server's side so that it can read its own CPU time there. */
export type PhaseMark = 'burst-start' | 'burst-end' | 'steady-start' | 'steady-end';

/** A post ready to go: its body and signature are made before any timed phase, as a load generator (wrk) would. */
interface Prepared {
  mid: string;
  body: Buffer;
  signature: string;
}

/**
 * Signed webhook posts over node:http with keep-alive connections (one per post in flight): the
 * client's own CPU per request stays small beside the server's (undici `fetch` and signing at post
 * time cost about as much as the acknowledgement it measured).
 */
function poster(api: string, concurrency: number) {
  const url = new URL(`${api}/webhook`);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  return {
    post: (p: Prepared) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': p.body.length, 'x-hub-signature-256': p.signature } },
          (res) => {
            res.resume();
            res.once('end', () => resolve(res.statusCode ?? 0));
            res.once('error', reject);
          },
        );
        req.once('error', reject);
        req.end(p.body);
      }),
    close: () => agent.destroy(),
  };
}

export async function runClients(c: ClientsInput, mark: (m: PhaseMark) => void = () => {}): Promise<ClientsResult> {
  const sockets: Socket[] = [];
  const closers: (() => void)[] = [];
  const firstSeen = new Map<string, number>();
  let deliveries = 0;
  try {
    for (const agent of c.agents) {
      const res = await fetch(`${c.api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: agent.email, password: c.password }) });
      const { token } = (await res.json()) as { token: string };
      const socket = io(`${c.api}/${c.companyId}`, { query: { userId: String(agent.id), token: `Bearer ${token}` }, transports: ['websocket'], reconnection: false });
      socket.on(`company-${c.companyId}-appMessage`, (p: { action: string; message: { wid: string } }) => {
        if (p.action !== 'create') return;
        deliveries += 1;
        if (!firstSeen.has(p.message.wid)) firstSeen.set(p.message.wid, performance.now());
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      sockets.push(socket);
    }

    const sentAt = new Map<string, number>();
    const ackedAt = new Map<string, number>();
    let seq = 0;
    const prepare = (count: number): Prepared[] =>
      Array.from({ length: count }, () => {
        const i = seq++;
        const mid = `m_bench_${randomBytes(10).toString('hex')}`;
        const body = Buffer.from(webhookBody({ accountId: c.page, from: `9${String(i % c.senders).padStart(6, '0')}`, text: `bench message #${i}`, mid }).body);
        return { mid, body, signature: signBody(c.secret, body) };
      });
    const http = poster(c.api, c.concurrency);
    closers.push(http.close);
    const post = async (p: Prepared) => {
      sentAt.set(p.mid, performance.now());
      const status = await http.post(p);
      ackedAt.set(p.mid, performance.now());
      return status;
    };
    const settle = async (mids: string[], started: number): Promise<Phase> => {
      const deadline = Date.now() + 180_000;
      while (mids.some((mid) => !firstSeen.has(mid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const lastSeen = Math.max(...mids.map((mid) => firstSeen.get(mid) ?? NaN));
      const latencies = mids.map((mid) => (firstSeen.get(mid) ?? NaN) - sentAt.get(mid)!).filter(Number.isFinite).sort((a, b) => a - b);
      return { totalMs: lastSeen - started, latencies, missing: mids.length - latencies.length };
    };
    /** A burst: `count` posts, `concurrency` in flight. */
    const run = async (count: number) => {
      const prepared = prepare(count);
      let next = 0;
      let refused = 0;
      const cpu = process.cpuUsage();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: c.concurrency }, async () => {
          while (next < count) if ((await post(prepared[next++]!)) !== 200) refused++;
        }),
      );
      const postedMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const clientCpuMs = (used.user + used.system) / 1000;
      if (c.acksOnly) return { postedMs, refused, clientCpuMs, clientBurstCpuMs: clientCpuMs, totalMs: postedMs, latencies: [], missing: 0 };
      const settled = await settle(prepared.map((p) => p.mid), started);
      const whole = process.cpuUsage(cpu);
      return { postedMs, refused, clientCpuMs, clientBurstCpuMs: (whole.user + whole.system) / 1000, ...settled };
    };
    /** A steady rate: one post every 1/rate s for steadySeconds, whatever the answers take. */
    const steady = async () => {
      const prepared = prepare(c.rate * c.steadySeconds);
      const started = performance.now();
      const posts: Promise<number>[] = [];
      for (const [i, p] of prepared.entries()) {
        const wait = started + (i * 1000) / c.rate - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        posts.push(post(p));
      }
      const refused = (await Promise.all(posts)).filter((s) => s !== 200).length;
      return { refused, ...(await settle(prepared.map((p) => p.mid), started)) };
    };

    const loadBefore = load();
    await run(c.warmup);
    deliveries = 0;
    mark('burst-start');
    const burst = await run(c.messages);
    mark('burst-end');
    const burstDeliveries = deliveries;
    const loadAfterBurst = load();
    const skipped = { refused: 0, totalMs: 0, latencies: [], missing: 0 };
    mark('steady-start');
    const st = c.acksOnly ? skipped : await steady();
    mark('steady-end');
    return {
      burst,
      steady: st,
      deliveries: burstDeliveries,
      sentAt: [...sentAt],
      ackedAt: [...ackedAt],
      firstSeenAt: [...firstSeen],
      timeOrigin: performance.timeOrigin,
      loadBefore,
      loadAfterBurst,
      loadAfterSteady: load(),
    };
  } finally {
    for (const s of sockets) s.disconnect();
    for (const close of closers) close();
  }
}

/** The clients in a child process (same code), answering over IPC: phase marks, then the result. */
export function runClientsInChild(c: ClientsInput, mark: (m: PhaseMark) => void = () => {}): Promise<ClientsResult> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL(import.meta.url).pathname, ['--child'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    child.on('message', (m) => (typeof m === 'object' && m !== null && 'mark' in m ? mark((m as { mark: PhaseMark }).mark) : resolve(m as ClientsResult)));
    child.once('error', reject);
    child.once('exit', (code) => (code ? reject(new Error(`bench clients exited with ${code}`)) : undefined));
    child.send(c);
  });
}

if (process.argv.includes('--child')) {
  process.once('message', (c) => {
    runClients(c as ClientsInput, (mark) => process.send!({ mark })).then(
      (result) => process.send!(result, () => process.exit(0)),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
