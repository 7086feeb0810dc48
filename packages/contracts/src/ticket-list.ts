import { z } from 'zod';
import { jsonIdList } from './contacts.js';
import { TICKET_STATUSES, ticketSchema, ticketStatusSchema } from './tickets.js';

/** `GET /tickets` (spec 2 §7, API-CONTRACT "Shapes of the busiest calls"). */

export const TICKETS_PER_PAGE = 40;
/** `count` counts matching tickets up to this many: a count equal to it means "at least this many". */
export const TICKET_COUNT_CAP = 1000;

/** The inbox views: the status tabs, and `search` (every status). */
export const TICKET_VIEWS = [...TICKET_STATUSES, 'search'] as const;
export type TicketView = (typeof TICKET_VIEWS)[number];

/** Clients send empty parameters for unset filters (`date=`): the same as absent. */
export const unsetIfEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** `true`/`false` as the query string carries them. */
export const queryFlag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

export const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected yyyy-MM-dd');

/** A JSON-encoded list of statuses (`statusFilter=["open","closed"]`); anything else is a 400. */
export const jsonStatusList = z.string().transform((raw, ctx) => {
  try {
    return z.array(ticketStatusSchema).parse(JSON.parse(raw));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'expected a JSON list of ticket statuses' });
    return z.NEVER;
  }
});

export const listTicketsQuery = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  /** The view: a status tab, or `search` / absent for every status. */
  status: unsetIfEmpty(z.enum(TICKET_VIEWS)),
  /** Narrow to statuses inside the view. */
  statusFilter: unsetIfEmpty(jsonStatusList),
  /** Ticket tag ids: tickets holding any of them. */
  tags: unsetIfEmpty(jsonIdList),
  /** Owner (user) ids. */
  users: unsetIfEmpty(jsonIdList),
  /** Queue ids: narrows to these queues (tickets without a queue stay subject to the visibility rule). */
  queueIds: unsetIfEmpty(jsonIdList),
  /** Connection ids (admins only; ignored for others). */
  whatsapps: unsetIfEmpty(jsonIdList),
  /** Created on this day (yyyy-MM-dd, server time zone). */
  date: unsetIfEmpty(day),
  /** Last updated on this day (yyyy-MM-dd, server time zone). */
  updatedAt: unsetIfEmpty(day),
  /** Every user's tickets in the tabs: honoured for admins and users with allUserChat only. */
  showAll: unsetIfEmpty(queryFlag),
  withUnreadMessages: unsetIfEmpty(queryFlag),
  /** Also match message contents (full-text, slower). */
  searchOnMessages: unsetIfEmpty(queryFlag),
  sortTickets: unsetIfEmpty(z.enum(['ASC', 'DESC'])),
});
export type ListTicketsQuery = z.output<typeof listTicketsQuery>;

export const ticketListResponse = z.object({
  tickets: z.array(ticketSchema),
  /** Matching tickets, counted up to TICKET_COUNT_CAP. */
  count: z.number(),
  hasMore: z.boolean(),
});
export type TicketListResponse = z.infer<typeof ticketListResponse>;
