import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { REPORT_SHEET_NAME, type TicketStatus } from '@balcao/contracts';
import ExcelJS from 'exceljs';
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

/** Waits while the reader is behind, so rows are read from the database only as fast as they leave. */
async function drained(out: Writable): Promise<void> {
  if (out.writableNeedDrain) await once(out, 'drain');
}

/**
 * The report as an .xlsx, written row by row into `out` (exceljs WorkbookWriter: committed rows
 * leave memory), reading the rows in keyset batches.
 */
export async function writeReportXlsx(db: DbOrTx, where: SQL, out: PassThrough): Promise<void> {
  // Fast deflate: the zip step is the export's bottleneck, and rows wait in memory while it lags behind.
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false, zip: { zlib: { level: 1 } } });
  const sheet = book.addWorksheet(REPORT_SHEET_NAME);
  sheet.addRow([...REPORT_EXPORT_HEADER]).commit();
  for await (const rows of reportBatches(db, where, REPORT_EXPORT_MAX)) {
    for (const r of rows) sheet.addRow(exportRow(r)).commit();
    await drained(out);
  }
  sheet.commit();
  await book.commit();
}
