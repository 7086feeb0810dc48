import { once } from 'node:events';
import type { PassThrough } from 'node:stream';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { reportBatches } from './batches.js';
import { REPORT_EXPORT_MAX } from './export.js';
import { presentReportRow } from './queries.js';

/**
 * `{ tickets, totalTickets }` for a huge page size, written batch by batch: at most REPORT_EXPORT_MAX
 * rows (the export's bound), `total` the rows sent. Pages past the first are empty (the page holds everything).
 */
export async function writeReportJson(db: Db, where: SQL, page: number, out: PassThrough): Promise<void> {
  out.write('{"tickets":[');
  let total = 0;
  if (page === 1) {
    for await (const rows of reportBatches(db, where, REPORT_EXPORT_MAX)) {
      const chunk = rows.map((r) => JSON.stringify(presentReportRow(r))).join(',');
      out.write(total > 0 ? `,${chunk}` : chunk);
      total += rows.length;
      if (out.writableNeedDrain) await once(out, 'drain');
    }
  }
  out.write(`],"totalTickets":{"total":${total}}}`);
}
