import type { PassThrough } from 'node:stream';
import { REPORT_SHEET_NAME, type TicketStatus } from '@balcao/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { cursorBatches, reportOrder } from './batches.js';
import { reportSelect } from './queries.js';
import { writeXlsxSheet } from './xlsx-stream.js';

/** Rows an export may hold (the spec's 200,000 with room to spare); docs/dashboard.md. */
export const REPORT_EXPORT_MAX = 500_000;

/** The sheet's header row, in the spec's column order (spec 2 §2 Reports). */
export const REPORT_EXPORT_HEADER = [
  'Conexão',
  'Contato',
  'Usuário',
  'Fila',
  'Status',
  'Última Mensagem',
  'Data/Hora de Abertura',
  'Data/Hora de Fechamento',
  'Tempo de Atendimento',
  'NPS',
] as const;

const STATUS_TEXT: Record<TicketStatus, string> = {
  open: 'Em atendimento',
  pending: 'Aguardando',
  closed: 'Finalizado',
  group: 'Grupo',
  nps: 'Aguardando avaliação',
  lgpd: 'LGPD',
};

/** The sheet's row number (the header is row 1): one window function, computed once however often it is named. */
const rowNumber = sql.raw('(row_number() OVER (ORDER BY r.created_at DESC, r.id DESC) + 1)');

/**
 * A string cell in the sheet's XML (xlsx-stream.ts rowXml's shape), left out when empty: the characters XML 1.0
 * cannot carry (control characters but tab, newline, carriage return; U+FFFE, U+FFFF) dropped, then & < > " escaped.
 */
const textCell = (column: string, value: SQL) =>
  sql`CASE WHEN coalesce(${value}, '') = '' THEN '' ELSE ${sql.raw(`'<c r="${column}'`)} || ${rowNumber} || '" t="inlineStr"><is><t xml:space="preserve">' ||
    replace(replace(replace(replace(regexp_replace(${value}, '[\\x01-\\x08\\x0B\\x0C\\x0E-\\x1F\\uFFFE\\uFFFF]', '', 'g'),
      '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;') || '</t></is></c>' END`;

/** dd/MM/yyyy HH:mm:ss in the session's time zone, which the export sets to the server's. */
const dateTime = (value: SQL) => sql`to_char(${value}, 'DD/MM/YYYY HH24:MI:SS')`;

const statusText = sql`CASE r.status ${sql.join(
  Object.entries(STATUS_TEXT).map(([status, text]) => sql`WHEN ${status} THEN ${text}`),
  sql` `,
)} END`;

/**
 * The export's query: the report's rows (reportSelect, the report's where and order, up to `max`), each
 * turned by PostgreSQL into its `<row>` of the sheet's XML, so Node receives one string per row and only
 * concatenates and deflates it — no row object, no cell array, no escaping per value in JavaScript, which
 * made the export's allocation rate, and with it the server's RSS, grow (docs/BENCHMARKS.md). The subquery's
 * columns are renamed by position (four of them are called "name"); its order carries over to the window
 * and the outer ORDER BY, so nothing is sorted twice and rows stream out as the cursor reads them.
 */
function exportQuery(db: Db, where: SQL, max: number) {
  const rows = reportSelect(db).where(where).orderBy(...reportOrder).limit(max);
  const cells = [
    textCell('A', sql.raw('r.whatsapp_name')),
    textCell('B', sql.raw('r.contact_name')),
    textCell('C', sql.raw('r.user_name')),
    textCell('D', sql.raw('r.queue_name')),
    textCell('E', statusText),
    textCell('F', sql.raw('r.last_message')),
    textCell('G', dateTime(sql.raw('r.created_at'))),
    textCell('H', dateTime(sql.raw('r.closed_at'))),
    textCell('I', sql.raw('r.support_time')),
    sql`CASE WHEN r.nps IS NULL THEN '' ELSE '<c r="J' || ${rowNumber} || '"><v>' || r.nps || '</v></c>' END`,
  ];
  return new PgDialect().sqlToQuery(sql`
    SELECT '<row r="' || ${rowNumber} || '">' || ${sql.join(cells, sql` || `)} || '</row>'
    FROM (${rows}) AS r(id, uuid, whatsapp_name, contact_name, user_name, queue_name, status, last_message, created_at, closed_at, support_time, nps)
    ORDER BY r.created_at DESC, r.id DESC`);
}

/** Each batch's rows as one piece of the sheet's XML, the client's disconnect ending the read. */
async function* exportXml(db: Db, where: SQL, gone: AbortSignal) {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for await (const rows of cursorBatches(db, exportQuery(db, where, REPORT_EXPORT_MAX), { TimeZone: timeZone })) {
    if (gone.aborted) return;
    yield rows.map((r) => r[0] as string).join('');
  }
}

/**
 * The report as an .xlsx streamed into `out` (xlsx-stream.ts): rows read from one cursor, each batch
 * written into the zip only when `out` has room, so memory stays at about one batch.
 */
export async function writeReportXlsx(db: Db, where: SQL, out: PassThrough): Promise<void> {
  const client = new AbortController();
  out.once('close', () => client.abort());
  await writeXlsxSheet(out, REPORT_SHEET_NAME, REPORT_EXPORT_HEADER, exportXml(db, where, client.signal));
}
