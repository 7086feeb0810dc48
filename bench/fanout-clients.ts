// The agent sockets of bench/fanout.ts: in a child process of their own (the default), so that decoding
// 1,000 sockets' frames does not share the server's thread and the figure measures the server, or
// (BENCH_CLIENT_PROCESS=0) in the bench's process. Each socket counts what it receives; once every
// socket expected to have a key has it, `reached` gets the last arrival (timeOrigin + now).
import { fork } from 'node:child_process';
import { io, type Socket } from 'socket.io-client';

export interface FanoutAgent {
  id: number;
  token: string;
  /** May see the bench's conversations (allTicket). */
  allowed: boolean;
}

export interface FanoutClientsInput {
  api: string;
  companyId: number;
  agents: FanoutAgent[];
}

/** What the sockets report: a key reached by all its sockets, with the first and last arrivals. */
export interface Reached {
  key: string;
  first: number;
  last: number;
}

export interface FanoutClients {
  /** The child process's id, when the sockets run in one. */
  pid?: number;
  /** Creates delivered to sockets not allowed to see them. */
  leaked(): Promise<number>;
  close(): Promise<void>;
}

const now = () => performance.timeOrigin + performance.now();

/** Connects the sockets one by one; message bodies are expected by the allowed ones, `reference …` keys by all. */
export async function connectClients(c: FanoutClientsInput, reached: (r: Reached) => void): Promise<FanoutClients> {
  const sockets: Socket[] = [];
  const allowedCount = c.agents.filter((a) => a.allowed).length;
  const seen = new Map<string, { n: number; first: number }>();
  let leaked = 0;
  const arrive = (key: string, expected: number) => {
    const at = now();
    const entry = seen.get(key) ?? { n: 0, first: at };
    entry.n += 1;
    seen.set(key, entry);
    if (entry.n === expected) {
      seen.delete(key);
      reached({ key, first: entry.first, last: at });
    }
  };
  for (const agent of c.agents) {
    const socket = io(`${c.api}/${c.companyId}`, { query: { userId: String(agent.id), token: `Bearer ${agent.token}` }, transports: ['websocket'], reconnection: false });
    socket.on(`company-${c.companyId}-appMessage`, (p: { action: string; message: { body: string } }) => {
      if (p.action !== 'create') return;
      if (agent.allowed) arrive(p.message.body, allowedCount);
      else leaked += 1;
    });
    socket.on('bench-reference', (p: { key: string }) => arrive(p.key, c.agents.length));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    sockets.push(socket);
  }
  return {
    leaked: async () => leaked,
    close: async () => {
      for (const s of sockets) s.disconnect();
    },
  };
}

type FromChild = { ready: true } | { reached: Reached } | { leaked: number };

/** The same sockets in a child process, answering over IPC. */
export function connectClientsInChild(c: FanoutClientsInput, reached: (r: Reached) => void): Promise<FanoutClients> {
  const child = fork(new URL(import.meta.url).pathname, ['--child'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  let leakedAnswer: ((n: number) => void) | undefined;
  return new Promise((resolve, reject) => {
    const clients = {
      pid: child.pid!,
      leaked: () => new Promise<number>((answer) => ((leakedAnswer = answer), child.send('leaked'))),
      close: () => new Promise<void>((done) => (child.once('exit', () => done()), child.send('close'))),
    };
    child.on('message', (m: FromChild) => {
      if ('reached' in m) reached(m.reached);
      else if ('leaked' in m) leakedAnswer?.(m.leaked);
      else resolve(clients);
    });
    child.once('error', reject);
    child.once('exit', (code) => (code ? reject(new Error(`bench clients exited with ${code}`)) : undefined));
    child.send(c);
  });
}

if (process.argv.includes('--child')) {
  process.once('message', (c) => {
    connectClients(c as FanoutClientsInput, (r) => process.send!({ reached: r } satisfies FromChild)).then(
      (clients) => {
        process.send!({ ready: true } satisfies FromChild);
        process.on('message', (m) => {
          if (m === 'leaked') void clients.leaked().then((n) => process.send!({ leaked: n } satisfies FromChild));
          if (m === 'close') void clients.close().then(() => process.exit(0));
        });
        // The bench's own end (or failure) ends this process too.
        process.once('disconnect', () => process.exit(0));
      },
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
