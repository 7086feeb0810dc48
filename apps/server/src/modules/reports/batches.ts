import { and, desc, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { tickets } from '../../db/schema/index.js';
import { reportSelect, type ReportDbRow } from './queries.js';

/** Rows per read while streaming: memory stays at one batch whatever the report's size. */
export const REPORT_BATCH = 2000;

/** The report's rows, newest ticket first, read in id-keyset batches (no offset, no whole-set buffer), up to `max`. */
export async function* reportBatches(db: DbOrTx, where: SQL, max: number): AsyncGenerator<ReportDbRow[]> {
  let before: number | undefined;
  for (let left = max; left > 0; ) {
    const rows = await reportSelect(db)
      .where(and(where, before === undefined ? undefined : lt(tickets.id, before)))
      .orderBy(desc(tickets.id))
      .limit(Math.min(REPORT_BATCH, left));
    if (rows.length === 0) return;
    yield rows;
    left -= rows.length;
    before = rows[rows.length - 1]?.id;
    if (rows.length < REPORT_BATCH) return;
  }
}
