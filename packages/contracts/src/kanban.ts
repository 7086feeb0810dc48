import { z } from 'zod';
import { jsonIdList } from './contacts.js';
import { tagSchema } from './tags.js';
import { extraInfoSchema, tagRefSchema, ticketStatusSchema } from './tickets.js';

/** The kanban board (spec 2 §2 "Kanban", §3 "Kanban ticket", §7 `GET /ticket/kanban`, `GET /tag/kanban/`; docs/kanban.md). */

/** The contact extra-info entry holding the opportunity value (a numeric string). */
export const KANBAN_VALUE_FIELD = 'valor';
/** The board answers at most this many tickets (the most recently active first). */
export const KANBAN_TICKET_LIMIT = 5000;
/** Card truncations (spec 2 §9). */
export const KANBAN_NAME_CHARS = 10;
export const KANBAN_MESSAGE_CHARS = 20;
/** Column width in pixels (spec 2 §9). */
export const KANBAN_COLUMN_WIDTH = 272;
export const KANBAN_SORTS = ['ticket', 'lastMessage', 'value'] as const;
export type KanbanSort = (typeof KANBAN_SORTS)[number];

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected yyyy-MM-dd');
const unsetIfEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** `GET /ticket/kanban`: dates are days (server time zone) of the tickets' last activity; both default to today. */
export const kanbanTicketsQuery = z
  .object({
    /** JSON list of queue ids; absent: the caller's own queues. */
    queueIds: unsetIfEmpty(jsonIdList),
    startDate: unsetIfEmpty(day),
    endDate: unsetIfEmpty(day),
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, { message: 'startDate must not be after endDate', path: ['startDate'] });
export type KanbanTicketsQuery = z.output<typeof kanbanTicketsQuery>;

export const kanbanTicketSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  status: ticketStatusSchema,
  queueId: z.number().nullable(),
  updatedAt: z.string(),
  lastMessage: z.string(),
  unreadMessages: z.number(),
  tags: z.array(tagRefSchema),
  contact: z.object({ id: z.number(), name: z.string(), urlPicture: z.string().nullable(), extraInfo: z.array(extraInfoSchema) }),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type KanbanTicket = z.infer<typeof kanbanTicketSchema>;
export const kanbanTicketsResponse = z.object({ tickets: z.array(kanbanTicketSchema) });

/** `GET /tag/kanban/`: the lanes, in creation order. */
export const kanbanLanesResponse = z.object({ lista: z.array(tagSchema) });

/** The opportunity value of a contact's extra info: a finite number, else null. */
export function opportunityValue(extraInfo: readonly { name: string; value: string }[]): number | null {
  const raw = extraInfo.find((e) => e.name === KANBAN_VALUE_FIELD)?.value.trim().replace(',', '.');
  if (!raw) return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

/** The lane (kanban tag id) a ticket's card sits in: its first tag that is a lane, else the default column (null). */
export function laneOf(ticketTags: readonly { id: number }[], laneIds: ReadonlySet<number>): number | null {
  return ticketTags.find((t) => laneIds.has(t.id))?.id ?? null;
}
