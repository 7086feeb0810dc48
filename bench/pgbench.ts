// PostgreSQL's own write benchmark as the reference of bench/ingest.ts: `pgbench -N`
// (simple-update, no branch/teller contention) against the same server, in the same run.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** PATH first, then Debian's versioned binaries (the /usr/bin wrapper needs a configured cluster). */
export function findPgbench(): string | undefined {
  const versioned = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => `/usr/lib/postgresql/${v}/bin/pgbench`)
        .filter(existsSync)
    : [];
  const onPath = (process.env.PATH ?? '').split(':').map((d) => `${d}/pgbench`).filter(existsSync);
  return process.env.PGBENCH ?? versioned[0] ?? onPath[0];
}

export interface PgbenchResult {
  tps: number;
  /** pgbench's `latency average` (ms per transaction). */
  latencyMs: number;
  clients: number;
  seconds: number;
}

/**
 * Initialises a scratch database `balcao_pgbench` on the server of `connectionString` and runs
 * `pgbench -N` (writes), or `-S` (select-only: the reference of the read benches).
 */
export async function runPgbench(connectionString: string, clients = 8, seconds = 30, script: '-N' | '-S' = '-N'): Promise<PgbenchResult | undefined> {
  const bin = findPgbench();
  if (!bin) return undefined;
  const url = new URL(connectionString);
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  try {
    await admin.query('DROP DATABASE IF EXISTS balcao_pgbench');
    await admin.query('CREATE DATABASE balcao_pgbench');
  } finally {
    await admin.end();
  }
  url.pathname = '/balcao_pgbench';
  const target = url.toString();
  await run(bin, ['-i', '-q', '-s', '10', target], { maxBuffer: 16 * 2 ** 20 });
  const { stdout } = await run(bin, [script, '-c', String(clients), '-j', '2', '-T', String(seconds), target], { maxBuffer: 16 * 2 ** 20 });
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
  const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1]);
  return Number.isFinite(tps) ? { tps, latencyMs, clients, seconds } : undefined;
}

/**
 * Runs the reference after a bench (on the same server, not beside it) and prints its tps,
 * the load average, and `rate` (what the bench measured, per second) as a share of it.
 */
export async function printPgbenchReference(connectionString: string, seconds: number, rate: { label: string; perSecond: number }, load: () => string): Promise<void> {
  const bin = findPgbench();
  if (!bin) return console.log('pgbench: NOT FOUND (install postgresql-client / postgresql-15, or set PGBENCH): no reference ratio');
  const ref = await runPgbench(connectionString, 8, seconds);
  if (!ref) return console.log(`pgbench (${bin}): no tps in its output`);
  console.log(`pgbench -N (${bin}, ${ref.clients} clients, ${ref.seconds} s): ${ref.tps.toFixed(0)} tps; load average now ${load()}`);
  console.log(`${rate.label} ÷ pgbench -N tps = ${((rate.perSecond / ref.tps) * 100).toFixed(2)} %`);
}
