import { z } from 'zod';
import { looseFlag, looseId, looseToggle, optionalId, toggleSchema } from './lenient.js';
import { pageQuery } from './validation.js';

/*
 * Scheduled messages (spec 2 §2 Schedules, §3 Schedule, §4 defaults, §5 validation, §7).
 * Not to be confused with `schedules.ts`, the opening hours of companies and queues.
 */

/** PENDENTE waits for its `sendAt`; AGENDADA is being sent (claimed); ENVIADA sent for the last time; ERRO failed, with `reason`. */
export const SCHEDULE_STATUSES = ['PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** `intervalo`: the unit of the recurrence, `valorIntervalo` of them between sends. */
export const SCHEDULE_INTERVALS = { 1: 'days', 2: 'weeks', 3: 'months', 4: 'minutes' } as const;
export type ScheduleInterval = keyof typeof SCHEDULE_INTERVALS;

/** `tipoDias`: 4 sends on any day; 5 moves a send off a weekend or national holiday to the business day before, 6 to the one after. */
export const SCHEDULE_DAY_RULES = [4, 5, 6] as const;
export type ScheduleDayRule = (typeof SCHEDULE_DAY_RULES)[number];

/** Attachments the schedule modal accepts (spec 2 §5). */
export const SCHEDULE_ATTACHMENT_EXTENSIONS = ['png', 'jpg', 'jpeg', 'pdf', 'xls', 'xlsx', 'gif'] as const;

export const SCHEDULE_BODY_MIN = 5;
export const SCHEDULE_MSG = { tooShort: 'Mensagem muito curta', required: 'Obrigatório' } as const;
export const SCHEDULES_PAGE_SIZE = 40;

/** Spec 2 §4: sendAt now + 1 h, intervalo 1 (days), tipoDias 4, openTicket enabled, statusTicket closed, enviarQuantasVezes 1. */
export const SCHEDULE_DEFAULTS = {
  intervalo: 1,
  valorIntervalo: 0,
  enviarQuantasVezes: 1,
  tipoDias: 4,
  openTicket: 'enabled',
  statusTicket: 'closed',
  assinar: false,
} as const;
export const SCHEDULE_DEFAULT_LEAD_MS = 3600_000;

const named = z.object({ id: z.number(), name: z.string() }).nullable();

export const scheduleSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  body: z.string(),
  sendAt: z.string(),
  sentAt: z.string().nullable(),
  status: z.enum(SCHEDULE_STATUSES),
  /** Why the last send failed (status ERRO). */
  reason: z.string().nullable(),
  contactId: z.number(),
  contact: named,
  userId: z.number().nullable(),
  ticketUserId: z.number().nullable(),
  ticketUser: named,
  queueId: z.number().nullable(),
  queue: named,
  whatsappId: z.number().nullable(),
  whatsapp: named,
  openTicket: toggleSchema,
  statusTicket: z.enum(['open', 'closed']),
  intervalo: z.number(),
  valorIntervalo: z.number(),
  enviarQuantasVezes: z.number(),
  /** Sends made so far. */
  contadorEnvio: z.number(),
  tipoDias: z.number(),
  assinar: z.boolean(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

const intIn = (min: number, max: number) => z.coerce.number<number | string>().int().min(min).max(max);

const scheduleFields = {
  body: z.string({ error: SCHEDULE_MSG.required }).trim().min(SCHEDULE_BODY_MIN, SCHEDULE_MSG.tooShort).max(10_000),
  contactId: looseId,
  /** ISO-8601; one without an offset is read in the server's time zone. */
  sendAt: z.coerce.date<string>({ error: SCHEDULE_MSG.required }),
  whatsappId: optionalId.optional(),
  ticketUserId: optionalId.optional(),
  queueId: optionalId.optional(),
  openTicket: looseToggle('enabled').optional(),
  statusTicket: z.enum(['open', 'closed']).optional(),
  intervalo: z.coerce
    .number<number | string>()
    .int()
    .refine((v) => v in SCHEDULE_INTERVALS, 'expected 1 (days), 2 (weeks), 3 (months) or 4 (minutes)')
    .optional(),
  valorIntervalo: intIn(0, 1000).optional(),
  enviarQuantasVezes: intIn(1, 1000).optional(),
  tipoDias: z.coerce
    .number<number | string>()
    .int()
    .refine((v) => (SCHEDULE_DAY_RULES as readonly number[]).includes(v), 'expected 4, 5 or 6')
    .optional(),
  assinar: looseFlag(false).optional(),
};

export const createScheduleBody = z.object(scheduleFields);
export const updateScheduleBody = z.object(scheduleFields).partial();

export const listSchedulesQuery = pageQuery.extend({
  contactId: z.coerce.number().int().positive().optional(),
  /** The calendar's visible range: schedules with `sendAt` inside it. */
  dateFrom: z.coerce.date().optional(),
  dateTo: z.coerce.date().optional(),
});
export type ListSchedulesQuery = z.output<typeof listSchedulesQuery>;

export const schedulePageResponse = z.object({ schedules: z.array(scheduleSchema), count: z.number(), hasMore: z.boolean() });
export type SchedulePage = z.infer<typeof schedulePageResponse>;
