import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { settings } from '../../db/schema/index.js';

export async function listSettings(db: DbOrTx, keys?: readonly string[]) {
  const query = db.select({ key: settings.key, value: settings.value }).from(settings);
  return keys ? query.where(inArray(settings.key, [...keys])).orderBy(asc(settings.key)) : query.orderBy(asc(settings.key));
}

export async function findSetting(db: DbOrTx, key: string) {
  const [row] = await db.select({ key: settings.key, value: settings.value }).from(settings).where(eq(settings.key, key));
  return row;
}

export async function upsertSetting(db: DbOrTx, key: string, value: string) {
  const [row] = await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`now()` } })
    .returning({ key: settings.key, value: settings.value });
  return row;
}
