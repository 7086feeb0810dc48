import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
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

/**
 * `TEST_DATABASE_URL` (the maintenance database of a server, e.g. `postgres://postgres@127.0.0.1:5439/postgres`):
 * the suite runs on that server instead of the embedded one. `.ci/run` points it at a throw-away
 * cluster of Debian's PostgreSQL 15, so CI covers both engines (docs/operations.md).
 */
async function setupExternal(project: TestProject, adminUrl: string) {
  if (!/\/postgres$/.test(adminUrl)) throw new Error('TEST_DATABASE_URL must name the maintenance database: …/postgres');
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
  await admin(`CREATE DATABASE ${TEMPLATE_DB}`);
  await migrateAndSeed(adminUrl.replace(/\/postgres$/, `/${TEMPLATE_DB}`), { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD });
  project.provide('pgAdminUrl', adminUrl);
  project.provide('templateDb', TEMPLATE_DB);
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) return setupExternal(project, process.env.TEST_DATABASE_URL);
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
