import { and, desc, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { tickets } from '../../db/schema/index.js';
import { reportSelect, type ReportDbRow } from './queries.js';

/** Rows per read while streaming: memory stays at one batch whatever the report's size. */
export const REPORT_BATCH = 2000;

/**
 * The report's rows, newest opening first (id breaks ties), read in keyset batches up to `max`: no offset,
 * no whole-set buffer. The keyset is the opening time because `tickets_company_created_idx` (company,
 * created_at) reads a date range's tickets and nothing else; walking ids backwards read every ticket
 * of the company and dropped those out of range (0.7 s a batch at 1,000,000 tickets, docs/BENCHMARKS.md).
 */
export async function* reportBatches(db: DbOrTx, where: SQL, max: number): AsyncGenerator<ReportDbRow[]> {
  let before: { at: string; id: number } | undefined;
  for (let left = max; left > 0; ) {
    const rows = await reportSelect(db)
      .where(and(where, before === undefined ? undefined : sql`(${tickets.createdAt}, ${tickets.id}) < (${before.at}::timestamptz, ${before.id}::int)`))
      .orderBy(desc(tickets.createdAt), desc(tickets.id))
      .limit(Math.min(REPORT_BATCH, left));
    if (rows.length === 0) return;
    yield rows;
    left -= rows.length;
    if (rows.length < REPORT_BATCH) return;
    // The last row's opening time as PostgreSQL holds it (microseconds: a JS Date would cut them and skip rows).
    const last = rows[rows.length - 1]!.id;
    const { rows: at } = await db.execute<{ at: string }>(sql`select ${tickets.createdAt}::text as at from ${tickets} where ${tickets.id} = ${last}`);
    before = { at: at[0]!.at, id: last };
  }
}
