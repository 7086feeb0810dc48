import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { migrateAndSeed } from '../src/db/migrate.js';

export const TEMPLATE_DB = 'balcao_tpl';
export const ADMIN_EMAIL = 'admin@balcao.local';
export const ADMIN_PASSWORD = 'admin-secret-123';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of the test server's `postgres` database (without the database name swapped). */
    pgAdminUrl: string;
    templateDb: string;
  }
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'balcao-test-pg-'));
  const server = await startEmbeddedPostgres({ dataDir, password: 'test-password', database: TEMPLATE_DB, fast: true });
  await migrateAndSeed(server.connectionString(TEMPLATE_DB), { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD });
  project.provide('pgAdminUrl', server.connectionString('postgres'));
  project.provide('templateDb', TEMPLATE_DB);

  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
