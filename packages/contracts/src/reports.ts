import { z } from 'zod';
import { jsonIdList } from './contacts.js';
import { dayRange } from './dashboard.js';
import { day, jsonStatusList, queryFlag, unsetIfEmpty } from './ticket-list.js';
import { ticketStatusSchema } from './tickets.js';
import { idParam } from './validation.js';

/** Reports (spec 2 §2 Reports, §3 Report row, §7); decisions in docs/dashboard.md. */

export const REPORT_PAGE_SIZES = [5, 10, 15, 30] as const;
/** Larger page sizes (the legacy export asks 9999999) are cut to this: the whole set comes from the export. */
export const REPORT_MAX_PAGE_SIZE = 1000;
/** `totalTickets.total` counts the matching tickets up to this, or to one row past the page asked for when further. */
export const REPORT_COUNT_CAP = 10_000;
/** Where the count of a page's total stops: a total equal to it means "this many or more". */
export const reportCountLimit = (page: number, pageSize: number) => Math.max(REPORT_COUNT_CAP, page * pageSize + 1);
/** `queueIds` entry for "tickets without a queue". */
export const REPORT_NO_QUEUE = 0;
export const REPORT_FILE_NAME = 'relatorio-de-atendimentos.xlsx';
export const REPORT_SHEET_NAME = 'RelatorioDeAtendimentos';

/** A JSON list of ids, where `0` may stand for "none" (`queueIds=[0,3]`). */
const jsonIdOrNoneList = z.string().transform((raw, ctx) => {
  try {
    return z.array(z.union([z.literal(REPORT_NO_QUEUE), idParam])).parse(JSON.parse(raw));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'expected a JSON list of ids' });
    return z.NEVER;
  }
});

const reportFilterShape = {
  /** Contact name or number containing the text (free text from the autocomplete). */
  searchParam: unsetIfEmpty(z.string().max(200)),
  contactId: unsetIfEmpty(idParam),
  whatsappId: unsetIfEmpty(jsonIdList),
  users: unsetIfEmpty(jsonIdList),
  queueIds: unsetIfEmpty(jsonIdOrNoneList),
  status: unsetIfEmpty(jsonStatusList),
  dateFrom: unsetIfEmpty(day),
  dateTo: unsetIfEmpty(day),
  onlyRated: unsetIfEmpty(queryFlag),
};

/** The export's filters: the report's, without paging. */
export const reportFilterQuery = dayRange(reportFilterShape, 'dateFrom', 'dateTo');
export type ReportFilter = z.output<typeof reportFilterQuery>;

export const reportQuery = dayRange(
  {
    ...reportFilterShape,
    page: unsetIfEmpty(z.coerce.number().int().min(1).max(1_000_000)),
    pageSize: unsetIfEmpty(z.coerce.number().int().min(1).max(10_000_000)),
  },
  'dateFrom',
  'dateTo',
);
export type ReportQuery = z.output<typeof reportQuery>;

export const reportRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  whatsappName: z.string().nullable(),
  contactName: z.string(),
  userName: z.string().nullable(),
  queueName: z.string().nullable(),
  status: ticketStatusSchema,
  lastMessage: z.string(),
  createdAt: z.string(),
  closedAt: z.string().nullable(),
  /** Opening to closing, `HH:mm:ss` (hours may pass 24); null while not closed. */
  supportTime: z.string().nullable(),
  /** The customer's NPS answer (0–10), null when not rated. */
  NPS: z.number().nullable(),
});
export type ReportRow = z.infer<typeof reportRowSchema>;

export const reportResponse = z.object({ tickets: z.array(reportRowSchema), totalTickets: z.object({ total: z.number() }) });
export type ReportResponse = z.infer<typeof reportResponse>;
