// The load side of bench/messages-api.ts: the posts, and the fake Graph the sends reach. Runs in
// the bench's process (app.inject), or (BENCH_CLIENT_PROCESS=1) in a child process of its own that
// posts over HTTP and answers the Send API there, as pgbench's clients and Meta's servers would:
// the server's CPU then counts the server only.
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { FakeGraph } from '../apps/server/test/fakes/graph-server.js';

export interface PostsInput {
  requests: number;
  concurrency: number;
  /** Requests per second, started on a fixed schedule whatever the answers (open loop); 0: `concurrency` in flight instead. */
  rate: number;
  contacts: number;
  warmup: number;
}

export interface PostsResult {
  seconds: number;
  /** Each timed request's latency, ms, sorted. */
  times: number[];
  failed: number;
  /** Each timed request as [scheduled start, latency] in ms, the start on the wall clock (both processes share it). */
  timeline: [number, number][];
}

/** One post of request `i` (a text to one of `contacts` numbers): answers its HTTP status. */
export type Post = (i: number) => Promise<number>;

export const payloadOf = (i: number, contacts: number) => ({ number: String(8_000_000 + (i % contacts)), body: `Mensagem ${i}` });

/**
 * `warmup` posts one at a time, then `requests` either with `concurrency` in flight or, with a `rate`,
 * each started on its own schedule and timed from that start (a late start counts as latency, as a
 * client sending at that rate would see it); `started` marks the timed part's start.
 */
export async function runPosts(c: PostsInput, post: Post, started: () => void = () => {}): Promise<PostsResult> {
  for (let i = 0; i < c.warmup; i++) await post(i);
  started();
  const timeline: [number, number][] = [];
  let failed = 0;
  const timed = async (i: number, from: number) => {
    if ((await post(i)) !== 200) failed += 1;
    timeline.push([performance.timeOrigin + from, performance.now() - from]);
  };
  let next = 0;
  const t0 = performance.now();
  if (c.rate > 0)
    await Promise.all(
      Array.from({ length: c.requests }, async (_, k) => {
        const due = t0 + (k * 1000) / c.rate;
        await sleep(due - performance.now());
        await timed(c.warmup + k, due);
      }),
    );
  else
    await Promise.all(
      Array.from({ length: c.concurrency }, async () => {
        while (next < c.requests) await timed(c.warmup + next++, performance.now());
      }),
    );
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, times: timeline.map(([, ms]) => ms).sort((a, b) => a - b), failed, timeline };
}

/** The child's connections to the API (BENCH_CLIENT_CONNECTIONS). */
const CLIENT_CONNECTIONS = Number(process.env.BENCH_CLIENT_CONNECTIONS ?? 64);

type FromChild = { graphUrl: string } | { started: true } | { result: PostsResult };

/** The child: starts the fake Graph (its URL goes to the parent), then posts to the API the parent names. */
export interface ChildClients {
  graphUrl: string;
  run(c: PostsInput & { api: string; token: string }, started: () => void): Promise<PostsResult>;
}

export function startChildClients(): Promise<ChildClients> {
  const child = fork(new URL(import.meta.url).pathname, ['--child'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  let onStarted = () => {};
  let onResult: (r: PostsResult) => void = () => {};
  // A child that dies fails the run (and the bench) instead of leaving it waiting for a result.
  let onFailure = (err: Error) => console.error(err);
  child.once('exit', (code) => (code ? onFailure(new Error(`bench clients exited with ${code}`)) : undefined));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    onFailure = reject;
    child.on('message', (m: FromChild) => {
      if ('graphUrl' in m)
        resolve({
          graphUrl: m.graphUrl,
          run: (c, started) =>
            new Promise((done, fail) => {
              onStarted = started;
              onFailure = fail;
              onResult = (r) => child.send({ stop: true }, () => done(r));
              child.send(c);
            }),
        });
      else if ('started' in m) onStarted();
      else onResult(m.result);
    });
  });
}

if (process.argv.includes('--child')) {
  const graph = await FakeGraph.start();
  process.send!({ graphUrl: graph.url });
  // A bench that failed before its run (seeding, say) leaves no client behind.
  process.once('disconnect', () => process.exit(0));
  process.on('message', (m: (PostsInput & { api: string; token: string }) | { stop: true }) => {
    if ('stop' in m) return void graph.close().then(() => process.exit(0));
    const headers = { authorization: `Bearer ${m.token}`, 'content-type': 'application/json' };
    // An integration's HTTP client keeps a bounded pool of connections: when the server falls behind, the posts
    // beyond it wait here (still timed from their scheduled start) instead of opening thousands of connections.
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENT_CONNECTIONS });
    const url = new URL('/api/messages/send', m.api);
    const post: Post = (i) =>
      new Promise((done, fail) => {
        const req = request(url, { method: 'POST', headers, agent }, (res) => {
          res.resume();
          res.once('end', () => done(res.statusCode ?? 0));
        });
        req.once('error', fail);
        req.end(JSON.stringify(payloadOf(i, m.contacts)));
      });
    runPosts(m, post, () => process.send!({ started: true })).then(
      (result) => process.send!({ result }),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
