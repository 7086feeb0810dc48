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
  stop(): Promise<void>;
}

export async function benchDatabase(name: string): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), `balcao-${name}-`));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  const url = process.env.DATABASE_URL;
  if (url) return { dataDir, connectionString: url, adminConnectionString: url, embedded: false, stop: async () => removeDir() };
  const server = await startEmbeddedPostgres({ dataDir, password: randomBytes(12).toString('hex'), database: `balcao_${name}` });
  return {
    dataDir,
    connectionString: server.connectionString(),
    adminConnectionString: server.connectionString('postgres'),
    embedded: true,
    stop: async () => {
      await server.stop();
      removeDir();
    },
  };
}
