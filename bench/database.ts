import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.js';

/** Where a bench runs: the server at DATABASE_URL when set, else an embedded PostgreSQL of its own. */
export interface BenchDatabase {
  /** A temporary DATA_DIR (media, and the embedded cluster). */
  dataDir: string;
  connectionString: string;
  /** The `postgres` database of the same server (pgbench's reference runs there). */
  adminConnectionString: string;
  embedded: boolean;
  /** BENCH_DATA_DIR was given: the cluster (and what a previous run seeded in it) is kept. */
  kept: boolean;
  /** The embedded server's postmaster (its CPU is counted by bench/cpu.ts). */
  postmasterPid?: number;
  stop(): Promise<void>;
}

/**
 * With BENCH_DATA_DIR the embedded cluster lives there and survives the run (fixed password, no fsync:
 * a seed of millions of rows is done once and reused); without it, a temporary cluster removed at the end.
 */
export async function benchDatabase(name: string): Promise<BenchDatabase> {
  const keep = process.env.BENCH_DATA_DIR;
  const dataDir = keep ?? mkdtempSync(join(tmpdir(), `balcao-${name}-`));
  const removeDir = () => (keep ? undefined : rmSync(dataDir, { recursive: true, force: true }));
  const url = process.env.DATABASE_URL;
  if (url) return { dataDir, connectionString: url, adminConnectionString: url, embedded: false, kept: !!keep, stop: async () => removeDir() };
  const server = await startEmbeddedPostgres({
    dataDir,
    password: keep ? 'balcao-bench' : randomBytes(12).toString('hex'),
    database: `balcao_${name}`,
    fast: !!keep,
  });
  return {
    dataDir,
    connectionString: server.connectionString(),
    adminConnectionString: server.connectionString('postgres'),
    embedded: true,
    kept: !!keep,
    postmasterPid: server.pid(),
    stop: async () => {
      await server.stop();
      removeDir();
    },
  };
}
