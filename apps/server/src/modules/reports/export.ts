import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { REPORT_SHEET_NAME, type TicketStatus } from '@balcao/contracts';
import ExcelJS, { type Worksheet } from 'exceljs';
import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { reportBatches } from './batches.js';
import type { ReportDbRow } from './queries.js';

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

const pad = (n: number) => String(n).padStart(2, '0');
/** dd/MM/yyyy HH:mm:ss in the server's time zone. */
const dateTime = (d: Date | null) =>
  d ? `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}` : '';

const exportRow = (r: ReportDbRow) => [
  r.whatsappName ?? '',
  r.contactName,
  r.userName ?? '',
  r.queueName ?? '',
  STATUS_TEXT[r.status],
  r.lastMessage,
  dateTime(r.createdAt),
  dateTime(r.closedAt),
  r.supportTime ?? '',
  r.NPS ?? '',
];

/**
 * The stream that carries the sheet's XML into the zip. exceljs writes the sheet into a StreamBuf that
 * hands each 64 KB block to archiver's input PassThrough without heeding its answer, so nothing inside
 * the writer waits for deflate: the XML piles up there. That PassThrough is where backpressure shows.
 * Internals of exceljs 4.4 / archiver 5: a reports test exports through this, so an upgrade that moves
 * them fails there, not in production.
 */
function zipInput(sheet: Worksheet): Writable {
  const feed = (sheet as unknown as { stream: { pipes?: Writable[] } }).stream.pipes?.[0];
  if (!feed || typeof feed.once !== 'function') throw new Error('exceljs: the sheet stream is not piped into the zip');
  return feed;
}

/**
 * Waits until the zip has taken the sheet's pending XML (it waits in turn for the client), so rows are
 * read from the database only as fast as they leave; gives up when the client goes away.
 */
async function zipCaughtUp(feed: Writable, gone: AbortSignal): Promise<void> {
  // archiver's PassThrough is readable-stream 2, which has no writableNeedDrain.
  const state = (feed as unknown as { _writableState: { needDrain: boolean } })._writableState;
  if (state.needDrain) await once(feed, 'drain', { signal: gone });
}

/**
 * The report as an .xlsx, written row by row into `out` (exceljs WorkbookWriter: committed rows
 * leave memory), reading the rows in keyset batches paced on the zip: memory stays at about one batch.
 */
export async function writeReportXlsx(db: DbOrTx, where: SQL, out: PassThrough): Promise<void> {
  const client = new AbortController();
  out.once('close', () => client.abort());
  // Fast deflate: the zip step is the export's bottleneck.
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false, zip: { zlib: { level: 1 } } });
  const sheet = book.addWorksheet(REPORT_SHEET_NAME);
  const feed = zipInput(sheet);
  sheet.addRow([...REPORT_EXPORT_HEADER]).commit();
  for await (const rows of reportBatches(db, where, REPORT_EXPORT_MAX)) {
    for (const r of rows) sheet.addRow(exportRow(r)).commit();
    await zipCaughtUp(feed, client.signal);
  }
  sheet.commit();
  await book.commit();
}
