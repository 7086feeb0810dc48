import { z } from 'zod';
import { jsonIdList } from './contacts.js';
import { day, queryFlag, unsetIfEmpty } from './ticket-list.js';
import { ticketStatusSchema } from './tickets.js';

/** Dashboard, attendance panel and charts (spec 2 §2, §3, §7); how each figure is computed: docs/dashboard.md. */

/** The dashboard covers at most this many days at once. */
export const DASHBOARD_MAX_DAYS = 366;

const dayCount = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;

/** A yyyy-MM-dd range: start ≤ end and at most `maxDays` days (both ends included). */
export function dayRange<T extends z.ZodRawShape>(shape: T, from: keyof T & string, to: keyof T & string, maxDays?: number) {
  return z.object(shape).superRefine((q, ctx) => {
    const a = (q as Record<string, unknown>)[from];
    const b = (q as Record<string, unknown>)[to];
    if (typeof a !== 'string' || typeof b !== 'string') return;
    if (a > b) ctx.addIssue({ code: 'custom', path: [to], message: 'end date before start date' });
    else if (maxDays && dayCount(a, b) > maxDays) ctx.addIssue({ code: 'custom', path: [to], message: `at most ${maxDays} days` });
  });
}

/** A calendar day that exists (2026-02-30 is refused). */
const realDay = day.refine((d) => !Number.isNaN(Date.parse(d)) && new Date(Date.parse(d)).toISOString().startsWith(d), 'not a date');

/** `GET /dashboard`: `date_from`/`date_to` (yyyy-MM-dd), or `days` back from today. Neither → 400 ('Parametrize o filtro'). */
export const dashboardQuery = dayRange(
  {
    days: unsetIfEmpty(z.coerce.number().int().min(1).max(DASHBOARD_MAX_DAYS)),
    date_from: unsetIfEmpty(realDay),
    date_to: unsetIfEmpty(realDay),
  },
  'date_from',
  'date_to',
  DASHBOARD_MAX_DAYS,
).refine((q) => q.days !== undefined || (q.date_from !== undefined && q.date_to !== undefined), {
  message: 'Parametrize o filtro',
  path: ['date_from'],
});
export type DashboardQuery = z.output<typeof dashboardQuery>;

export const dashboardCountersSchema = z.object({
  supportHappening: z.number(),
  supportPending: z.number(),
  supportFinished: z.number(),
  supportGroups: z.number(),
  leads: z.number(),
  /** Minutes. */
  avgSupportTime: z.number(),
  avgWaitTime: z.number(),
  activeTickets: z.number(),
  passiveTickets: z.number(),
  npsScore: z.number(),
  npsPromotersPerc: z.number(),
  npsPassivePerc: z.number(),
  npsDetractorsPerc: z.number(),
  tickets: z.number(),
  waitRating: z.number(),
  withoutRating: z.number(),
  withRating: z.number(),
  percRating: z.number(),
  /** Users online and in the company ('Atendentes Ativos'). */
  usersOnline: z.number(),
  usersTotal: z.number(),
});
export type DashboardCounters = z.infer<typeof dashboardCountersSchema>;

export const dashboardAttendantSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** Average NPS answer (0–10) of the attendant's rated tickets, null without any. */
  rating: z.number().nullable(),
  countRating: z.number(),
  tickets: z.number(),
  avgWaitTime: z.number(),
  avgSupportTime: z.number(),
  online: z.boolean(),
});
export type DashboardAttendant = z.infer<typeof dashboardAttendantSchema>;

export const dashboardResponse = z.object({ counters: dashboardCountersSchema, attendants: z.array(dashboardAttendantSchema) });
export type DashboardResponse = z.infer<typeof dashboardResponse>;

/** `GET /dashboard/ticketsUsers` and `/dashboard/ticketsDay` (`companyId` is accepted and ignored: the token decides). */
export const chartQuery = dayRange(
  { initialDate: realDay, finalDate: realDay, companyId: z.unknown().optional() },
  'initialDate',
  'finalDate',
  DASHBOARD_MAX_DAYS,
);
export type ChartQuery = z.output<typeof chartQuery>;

export const ticketsUsersResponse = z.object({ data: z.array(z.object({ nome: z.string(), quantidade: z.number() })) });
export type TicketsUsersResponse = z.infer<typeof ticketsUsersResponse>;

/** Per hour ('horario' 0–23) for a single day, else per day ('data' yyyy-MM-dd). */
export const ticketsDayResponse = z.object({
  data: z.array(z.object({ horario: z.string().optional(), data: z.string().optional(), total: z.number() })),
  count: z.number(),
});
export type TicketsDayResponse = z.infer<typeof ticketsDayResponse>;

/** `GET /messages-allMe`: messages sent (`fromMe=true`) or received in a range. */
export const messagesAllMeQuery = dayRange({ fromMe: queryFlag, dateStart: realDay, dateEnd: realDay }, 'dateStart', 'dateEnd', DASHBOARD_MAX_DAYS);
export const messagesAllMeResponse = z.object({ count: z.array(z.object({ count: z.number() })) });
export type MessagesAllMeResponse = z.infer<typeof messagesAllMeResponse>;

/** The attendance panel's tickets look back this many days by default. */
export const MOMENTS_DEFAULT_DAYS = 30;
/** At most this many tickets per status in the panel (the newest first). */
export const MOMENTS_LIMIT = 200;

/** `GET /dashboard/moments` and `GET /usersMoments`. */
export const momentsQuery = dayRange(
  {
    status: unsetIfEmpty(ticketStatusSchema),
    showAll: unsetIfEmpty(queryFlag),
    queueIds: unsetIfEmpty(jsonIdList),
    dateStart: unsetIfEmpty(realDay),
    dateEnd: unsetIfEmpty(realDay),
    userId: unsetIfEmpty(z.coerce.number().int().positive().max(2_147_483_647)),
  },
  'dateStart',
  'dateEnd',
  DASHBOARD_MAX_DAYS,
);
export type MomentsQuery = z.output<typeof momentsQuery>;

export const momentTicketSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  status: ticketStatusSchema,
  userId: z.number().nullable(),
  unreadMessages: z.number(),
  lastMessage: z.string(),
  updatedAt: z.string(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  contact: z.object({ id: z.number(), name: z.string(), profilePicUrl: z.string().nullable() }),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
});
export type MomentTicket = z.infer<typeof momentTicketSchema>;

/** `GET /usersMoments`: each user with the open tickets they hold in the window. */
export const userMomentSchema = z.object({
  id: z.number(),
  name: z.string(),
  online: z.boolean(),
  tickets: z.number(),
});
export type UserMoment = z.infer<typeof userMomentSchema>;
