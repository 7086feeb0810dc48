import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as schema from './schema/index.js';
import { seedDatabase, type SeedOptions, type SeedResult } from './seed.js';

export const MIGRATIONS_FOLDER = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant: serialises migrations + seed when several nodes boot at once.
const BOOT_LOCK = 4_242_001;

/** Applies pending migrations, then seeds (idempotent), under one advisory lock. */
export async function migrateAndSeed(connectionString: string, seed: SeedOptions): Promise<SeedResult> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [BOOT_LOCK]);
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    return await seedDatabase(db, seed);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [BOOT_LOCK]).catch(() => undefined);
    await client.end();
  }
}
