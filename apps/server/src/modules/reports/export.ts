import type { PassThrough } from 'node:stream';
import { REPORT_SHEET_NAME, type TicketStatus } from '@balcao/contracts';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { reportBatches } from './batches.js';
import type { ReportDbRow } from './queries.js';
import { writeXlsxSheet, type XlsxCell } from './xlsx-stream.js';

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

const exportRow = (r: ReportDbRow): XlsxCell[] => [
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

/** Each batch's rows as sheet cells, the client's disconnect ending the read. */
async function* exportRows(db: Db, where: SQL, gone: AbortSignal) {
  for await (const rows of reportBatches(db, where, REPORT_EXPORT_MAX)) {
    if (gone.aborted) return;
    yield rows.map(exportRow);
  }
}

/**
 * The report as an .xlsx streamed into `out` (xlsx-stream.ts): rows read in keyset batches, each
 * written as XML into the zip only when `out` has room, so memory stays at about one batch.
 */
export async function writeReportXlsx(db: Db, where: SQL, out: PassThrough): Promise<void> {
  const client = new AbortController();
  out.once('close', () => client.abort());
  await writeXlsxSheet(out, REPORT_SHEET_NAME, REPORT_EXPORT_HEADER, exportRows(db, where, client.signal));
}
