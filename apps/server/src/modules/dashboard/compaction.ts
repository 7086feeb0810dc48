import type PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import type { AppContext } from '../../http/context.js';

const COMPACT_JOB = 'dashboard-daily-compact';

/** Folds the daily summary's delta rows into one row per key (migration 0034); answers how many it folded. */
export async function compactDashboardDaily(db: DbOrTx): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`SELECT dashboard_daily_compact() AS n`);
  return rows[0]?.n ?? 0;
}

/**
 * Every minute: the deltas the ticket triggers wrote since. Readers add deltas and folded rows alike, so a
 * late or skipped run only makes the dashboard read a few more rows; concurrent runs are safe.
 */
export async function registerDashboardJobs(boss: PgBoss, ctx: AppContext): Promise<void> {
  await boss.createQueue(COMPACT_JOB);
  await boss.schedule(COMPACT_JOB, '* * * * *');
  await boss.work(COMPACT_JOB, async () => {
    await compactDashboardDaily(ctx.db);
  });
}
