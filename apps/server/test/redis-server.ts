import { spawn, spawnSync } from 'node:child_process';
import { freePort } from '../src/db/embedded.js';

/**
 * A throw-away Debian `redis-server` (no persistence) on a free port, for the multi-node
 * tests. `.ci/run` installs it; on a machine without it those tests are skipped, saying why.
 */
export const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? 'redis-server';
export const hasRedisServer = spawnSync(REDIS_SERVER, ['--version']).status === 0;
export const NO_REDIS_MESSAGE = `skipped: ${REDIS_SERVER} is not installed (apt-get install redis-server; .ci/run installs it)`;

export interface RedisServer {
  url: string;
  /** Its process, whose CPU a bench counts. */
  pid: number;
  stop(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const proc = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise<void>((ready, fail) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) ready();
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (code) => fail(new Error(`redis-server exited (${code}):\n${out}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: proc.pid!,
    stop: () =>
      new Promise<void>((done) => {
        if (proc.exitCode !== null) return done();
        proc.once('exit', () => done());
        proc.kill('SIGTERM');
      }),
  };
}
