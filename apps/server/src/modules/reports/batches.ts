import { desc, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tickets } from '../../db/schema/index.js';
import { reportSelect, type ReportDbRow } from './queries.js';

/** Rows per fetch while streaming: memory stays at one batch whatever the report's size. */
export const REPORT_BATCH = 2000;

/** The report's order (newest opening first, id breaking ties): the stream's and the export's. */
export const reportOrder = [desc(tickets.createdAt), desc(tickets.id)] as const;

/** A cursor row (an array, in reportSelect's field order) as the report's row: one literal, one shape for V8. */
const reportRow = (r: unknown[]): ReportDbRow =>
  ({
    id: r[0],
    uuid: r[1],
    whatsappName: r[2],
    contactName: r[3],
    userName: r[4],
    queueName: r[5],
    status: r[6],
    lastMessage: r[7],
    createdAt: r[8],
    closedAt: r[9],
    supportTime: r[10],
    NPS: r[11],
  }) as ReportDbRow;

/**
 * The report's rows, newest opening first (id breaks ties), up to `max`, in batches of REPORT_BATCH from
 * ONE server-side cursor (a read-only transaction on a connection of its own): one plan for the whole set
 * — planned for all its rows (`cursor_tuple_fraction` 1), so PostgreSQL may hash-join the contacts instead
 * of probing them one by one — and no re-seek per batch. The keyset batches before cost ~170 ms per 2,000
 * rows at 1,000,000 tickets (docs/BENCHMARKS.md). A consumer that stops early closes the cursor.
 */
export async function* reportBatches(db: Db, where: SQL, max: number): AsyncGenerator<ReportDbRow[]> {
  const query = reportSelect(db).where(where).orderBy(...reportOrder).limit(max).toSQL();
  const client = await db.$client.connect();
  let failed = false;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query('SET LOCAL cursor_tuple_fraction = 1');
    await client.query(`DECLARE report_rows NO SCROLL CURSOR FOR ${query.sql}`, query.params);
    const fetch = () => client.query<unknown[]>({ text: `FETCH ${REPORT_BATCH} FROM report_rows`, rowMode: 'array' });
    // The next batch is fetched while the consumer writes this one: PostgreSQL and Node work side by side.
    for (let next = fetch(); ; ) {
      const { rows } = await next;
      if (rows.length === 0) break;
      const full = rows.length === REPORT_BATCH;
      if (full) {
        next = fetch();
        // A consumer that stops now never awaits it: its failure must not go unhandled (the awaiting path still sees it).
        next.catch(() => undefined);
      }
      yield rows.map(reportRow);
      if (!full) break;
    }
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    // Also when the consumer stopped early (return()): end the transaction, which closes the cursor.
    await client.query('ROLLBACK').catch(() => (failed = true));
    client.release(failed);
  }
}
