import type { PassThrough } from 'node:stream';
import { REPORT_SHEET_NAME, type TicketStatus } from '@balcao/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Db } from '../../db/client.js';
import { reportOrder } from './batches.js';
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
 * cannot carry (control characters but tab, newline, carriage return; U+FFFE, U+FFFF) dropped, & < > " escaped,
 * and the characters COPY's text format would escape (backslash, tab, newline, carriage return) written as
 * character references, so COPY passes the XML through as it is; a carriage return becomes a newline, as an XML
 * parser reads a literal one.
 */
const textCell = (column: string, value: SQL) =>
  sql`CASE WHEN coalesce(${value}, '') = '' THEN '' ELSE ${sql.raw(`'<c r="${column}'`)} || ${rowNumber} || '" t="inlineStr"><is><t xml:space="preserve">' ||
    replace(replace(replace(replace(replace(replace(replace(replace(
      regexp_replace(replace(${value}, E'\\r\\n', E'\\n'), '[\\x01-\\x08\\x0B\\x0C\\x0E-\\x1F\\uFFFE\\uFFFF]', '', 'g'),
      '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), E'\\\\', '&#92;'), E'\\t', '&#9;'), E'\\n', '&#10;'), E'\\r', '&#10;')
    || '</t></is></c>' END`;

/** dd/MM/yyyy HH:mm:ss in the session's time zone, which the export sets to the server's. */
const dateTime = (value: SQL) => sql`to_char(${value}, 'DD/MM/YYYY HH24:MI:SS')`;

const statusText = sql`CASE r.status ${sql.join(
  Object.entries(STATUS_TEXT).map(([status, text]) => sql`WHEN ${status} THEN ${text}`),
  sql` `,
)} END`;

/** A bind parameter as an SQL literal: COPY takes none, so the export's few (ids, dates, names) are written in. */
function literal(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (typeof value === 'boolean') return String(value);
  throw new Error(`no SQL literal for ${typeof value}`);
}

/**
 * The export's COPY: the report's rows (reportSelect, the report's where and order, up to `max`), each
 * turned by PostgreSQL into its `<row>` of the sheet's XML, one line of COPY's output per row (the newline
 * between rows is white space the sheet allows). Node receives bytes, never a row, a string or a cell, and only
 * deflates them: the row objects and strings of the cursor version made the export's allocation rate, and with
 * it the server's RSS, grow (docs/BENCHMARKS.md). The subquery's columns are renamed by position (four of them
 * are called "name"); its order carries over to the window and the outer ORDER BY, so nothing is sorted twice
 * and rows stream out as they are read.
 */
function exportCopy(db: Db, where: SQL, max: number): string {
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
  const query = new PgDialect().sqlToQuery(sql`
    SELECT '<row r="' || ${rowNumber} || '">' || ${sql.join(cells, sql` || `)} || '</row>'
    FROM (${rows}) AS r(id, uuid, whatsapp_name, contact_name, user_name, queue_name, status, last_message, created_at, closed_at, support_time, nps)
    ORDER BY r.created_at DESC, r.id DESC`);
  return `COPY (${query.sql.replace(/\$(\d+)\b/g, (_, n: string) => literal(query.params[Number(n) - 1]))}) TO STDOUT`;
}

/**
 * The sheet's rows as COPY's bytes, on a connection of its own in a read-only transaction whose time zone is
 * the server's (the dates' text). The stream's backpressure reaches PostgreSQL: nothing is read from its socket
 * while the zip, and so the client, has no room. A client that goes away ends the read; the connection, left
 * inside a COPY, is then closed rather than returned to the pool.
 */
async function* exportXml(db: Db, where: SQL, gone: AbortSignal): AsyncGenerator<Buffer> {
  const client = await db.$client.connect();
  let finished = false;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SELECT set_config('TimeZone', $1, true)`, [Intl.DateTimeFormat().resolvedOptions().timeZone]);
    for await (const chunk of client.query(copyTo(exportCopy(db, where, REPORT_EXPORT_MAX)))) {
      if (gone.aborted) return;
      yield chunk as Buffer;
    }
    await client.query('ROLLBACK');
    finished = true;
  } finally {
    client.release(!finished);
  }
}

/**
 * The report as an .xlsx streamed into `out` (xlsx-stream.ts): the rows' XML from one COPY, written into the
 * zip only when `out` has room, so memory stays at a few chunks whatever the report's size.
 */
export async function writeReportXlsx(db: Db, where: SQL, out: PassThrough): Promise<void> {
  const client = new AbortController();
  out.once('close', () => client.abort());
  await writeXlsxSheet(out, REPORT_SHEET_NAME, REPORT_EXPORT_HEADER, exportXml(db, where, client.signal));
}
