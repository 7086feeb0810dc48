import { z } from 'zod';
import { CONNECTION_TOKEN_LENGTH, DEFAULT_MAX_USE_BOT_QUEUES, IMPORT_WINDOW_YEARS } from './constants.js';
import { looseFlag, looseId, looseToggle, optionalId, toggleSchema } from './lenient.js';

/** Connections (spec 1 §3 "Connection", §4 statuses, §5 "Connection form"). */
export const CHANNELS = ['whatsapp', 'facebook', 'instagram'] as const;
export const channelSchema = z.enum(CHANNELS);
export type Channel = z.infer<typeof channelSchema>;

export const CONNECTION_STATUSES = ['qrcode', 'OPENING', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'CONNECTED'] as const;
export const connectionStatusSchema = z.enum(CONNECTION_STATUSES);
export type ConnectionStatus = z.infer<typeof connectionStatusSchema>;

/** `statusImportMessages` once an import finished and its tickets wait for "close imported tickets". */
export const IMPORT_STATUS_RENDER_CLOSE = 'renderButtonCloseTickets';
/** `statusImportMessages` while the history is being written. */
export const IMPORT_STATUS_RUNNING = 'Running';
/** Oldest allowed vacation date: 10 days ago (spec 1 §5). */
export const VACATION_MIN_DAYS_AGO = 10;
export const CONNECTION_NAME_MIN = 2;
export const CONNECTION_NAME_MAX = 50;
/** Connection greeting media: image or video only (spec 1 §5). */
export const GREETING_MEDIA_TYPES = ['image/', 'video/'] as const;

/** One weekday of a connection's hours (the hours editor: two periods a day, HH:MM). */
export const connectionScheduleSchema = z.object({
  weekday: z.string().max(20),
  weekdayEn: z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']),
  startTimeA: z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d)?$/, 'expected HH:MM'),
  endTimeA: z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d)?$/, 'expected HH:MM'),
  startTimeB: z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d)?$/, 'expected HH:MM'),
  endTimeB: z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d)?$/, 'expected HH:MM'),
});
export type ConnectionSchedule = z.infer<typeof connectionScheduleSchema>;

/** Whaticket-family clients send numbers as strings and blanks as "": both mean 0 here ("an empty timeSendQueue becomes 0"). */
const minutes = z.preprocess((v) => (v === '' || v === null || v === undefined ? 0 : v), z.coerce.number().int().min(0).max(525_600));
const text = (max: number) => z.preprocess((v) => (v === null || v === undefined ? '' : v), z.string().max(max));
const optionalDate = z.preprocess((v) => (v === '' || v === undefined ? null : v), z.coerce.date().nullable());

const YEAR_MS = 365.25 * 24 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;
/** Slack for clocks between browser and server when a date must not be "after now". */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * `POST /whatsapp` and `PUT /whatsapp/{id}`: every field of the connection dialog
 * with the rules of spec 1 §5. The web form uses this same schema; messages are
 * the spec's texts or i18n keys of the dialog.
 */
export const whatsappFormObject = z.object({
  name: z.string().trim().min(CONNECTION_NAME_MIN, 'Too Short!').max(CONNECTION_NAME_MAX, 'Too Long!'),
  channel: channelSchema.default('whatsapp'),
  isDefault: looseFlag(false).default(false),
  provider: z.string().max(20).default('beta'),
  token: z
    .string()
    .regex(new RegExp(`^[A-Za-z0-9]{${CONNECTION_TOKEN_LENGTH}}$`), `${CONNECTION_TOKEN_LENGTH} letters or digits`)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  greetingMessage: text(5000).default(''),
  complationMessage: text(5000).default(''),
  outOfHoursMessage: text(5000).default(''),
  ratingMessage: text(5000).default(''),
  maxUseBotQueues: minutes.default(DEFAULT_MAX_USE_BOT_QUEUES),
  timeUseBotQueues: minutes.default(0),
  timeSendQueue: minutes.default(0),
  sendIdQueue: optionalId.default(null),
  expiresTicket: minutes.default(0),
  whenExpiresTicket: z.enum(['0', '1']).default('0'),
  expiresTicketNPS: minutes.default(0),
  maxUseBotQueuesNPS: minutes.default(DEFAULT_MAX_USE_BOT_QUEUES),
  expiresInactiveMessage: text(5000).default(''),
  timeInactiveMessage: minutes.default(0),
  inactiveMessage: text(5000).default(''),
  timeCreateNewTicket: minutes.default(0),
  allowGroup: looseFlag(false).default(false),
  groupAsTicket: looseToggle('disabled').default('disabled'),
  enableImportMessage: looseFlag(false).default(false),
  importOldMessages: optionalDate.default(null),
  importRecentMessages: optionalDate.default(null),
  importOldMessagesGroups: looseFlag(false).default(false),
  closedTicketsPostImported: looseFlag(false).default(false),
  queueIdImportMessages: optionalId.default(null),
  integrationId: optionalId.default(null),
  promptId: optionalId.default(null),
  collectiveVacationStart: optionalDate.default(null),
  collectiveVacationEnd: optionalDate.default(null),
  collectiveVacationMessage: text(5000).default(''),
  queueIds: z.array(looseId).max(200).default([]),
  schedules: z.array(connectionScheduleSchema).max(7).default([]),
});

type FormValues = z.output<typeof whatsappFormObject>;
type Issue = { path: string; message: string };

/** The cross-field rules of spec 1 §5, as a list of issues (empty when valid). `now` is injectable for tests. */
export function connectionFormIssues(v: FormValues, now = new Date()): Issue[] {
  const issues: Issue[] = [];
  if (v.ratingMessage.trim() && v.expiresTicketNPS <= 0) {
    issues.push({ path: 'expiresTicketNPS', message: 'whatsappModal.errorExpiresNPS' });
  }
  if (v.timeSendQueue > 0 && !v.sendIdQueue) issues.push({ path: 'sendIdQueue', message: 'whatsappModal.errorSendQueue' });
  if (v.sendIdQueue && v.timeSendQueue <= 0) issues.push({ path: 'timeSendQueue', message: 'whatsappModal.errorSendQueue' });
  if (v.collectiveVacationMessage.trim()) {
    const earliest = now.getTime() - VACATION_MIN_DAYS_AGO * DAY_MS;
    for (const key of ['collectiveVacationStart', 'collectiveVacationEnd'] as const) {
      const d = v[key];
      if (!d) issues.push({ path: key, message: 'Required' });
      else if (d.getTime() < earliest) issues.push({ path: key, message: `not before ${VACATION_MIN_DAYS_AGO} days ago` });
    }
    if (v.collectiveVacationStart && v.collectiveVacationEnd && v.collectiveVacationEnd < v.collectiveVacationStart) {
      issues.push({ path: 'collectiveVacationEnd', message: 'must not be before the start' });
    }
  }
  if (v.enableImportMessage) {
    const oldest = now.getTime() - IMPORT_WINDOW_YEARS * YEAR_MS;
    const latest = now.getTime() + CLOCK_SKEW_MS;
    const from = v.importOldMessages;
    const to = v.importRecentMessages;
    if (!from) issues.push({ path: 'importOldMessages', message: 'Required' });
    else if (from.getTime() < oldest || from.getTime() > latest) {
      issues.push({ path: 'importOldMessages', message: `between ${IMPORT_WINDOW_YEARS} years ago and now` });
    }
    if (!to) issues.push({ path: 'importRecentMessages', message: 'Required' });
    else if ((from && to < from) || to.getTime() > latest) {
      issues.push({ path: 'importRecentMessages', message: 'not before the old-messages date and not after now' });
    }
    if (!v.queueIdImportMessages) issues.push({ path: 'queueIdImportMessages', message: 'Required' });
  }
  if (v.timeInactiveMessage > 0 && v.expiresTicket <= 0) issues.push({ path: 'expiresTicket', message: 'Required' });
  return issues;
}

export const whatsappFormSchema = whatsappFormObject.superRefine((v, ctx) => {
  for (const issue of connectionFormIssues(v)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
});
export type WhatsappForm = z.input<typeof whatsappFormSchema>;
export type WhatsappFormValues = z.output<typeof whatsappFormSchema>;

/** The queue of a connection as the list shows it. */
export const whatsappQueueSchema = z.object({ id: z.number(), name: z.string(), color: z.string(), greetingMessage: z.string().nullable() });

/**
 * A connection as the API answers it. Never carries the Baileys session nor the
 * page access token; `token` is present only for callers who may edit connections.
 */
export const whatsappSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  number: z.string(),
  channel: channelSchema,
  status: connectionStatusSchema,
  /** Only for callers who may edit connections, and never in `company-{id}-whatsapp` (it comes by `whatsappSession`). */
  qrcode: z.string().optional(),
  retries: z.number(),
  isDefault: z.boolean(),
  provider: z.string(),
  token: z.string().optional(),
  facebookPageId: z.string().nullable(),
  instagramAccountId: z.string().nullable(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  maxUseBotQueues: z.number(),
  timeUseBotQueues: z.number(),
  timeSendQueue: z.number(),
  sendIdQueue: z.number().nullable(),
  expiresTicket: z.number(),
  whenExpiresTicket: z.enum(['0', '1']),
  expiresTicketNPS: z.number(),
  maxUseBotQueuesNPS: z.number(),
  expiresInactiveMessage: z.string(),
  timeInactiveMessage: z.number(),
  inactiveMessage: z.string(),
  timeCreateNewTicket: z.number(),
  allowGroup: z.boolean(),
  groupAsTicket: toggleSchema,
  enableImportMessage: z.boolean(),
  importOldMessages: z.string().nullable(),
  importRecentMessages: z.string().nullable(),
  importOldMessagesGroups: z.boolean(),
  closedTicketsPostImported: z.boolean(),
  queueIdImportMessages: z.number().nullable(),
  statusImportMessages: z.string().nullable(),
  integrationId: z.number().nullable(),
  promptId: z.number().nullable(),
  /** The AI prompt it names (id and name only: its keys stay on the prompts page). */
  prompt: z.object({ id: z.number(), name: z.string() }).nullable(),
  greetingMediaAttachment: z.string().nullable(),
  collectiveVacationStart: z.string().nullable(),
  collectiveVacationEnd: z.string().nullable(),
  collectiveVacationMessage: z.string(),
  schedules: z.array(connectionScheduleSchema),
  queues: z.array(whatsappQueueSchema),
  company: z.object({ id: z.number(), name: z.string() }).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Whatsapp = z.infer<typeof whatsappSchema>;

/** `GET /whatsapp`, `/whatsapp/filter`, `/whatsapp/all`: `session` is accepted and ignored (the blob is never sent). */
export const whatsappListQuery = z.object({
  session: z.string().max(5).optional(),
  companyId: z.coerce.number().int().positive().optional(),
  channel: channelSchema.optional(),
});

/** `POST /whatsappsession/{id}`: with `phoneNumber`, link by pairing code (status PAIRING, the code in `qrcode`) instead of a QR. */
export const startSessionBody = z.object({
  phoneNumber: z
    .string()
    .transform((v) => v.replace(/\D/g, ''))
    .pipe(z.string().regex(/^\d{8,15}$/))
    .optional(),
});

/** `POST /facebook` (spec 1 §7): Meta's login result. */
export const facebookConnectBody = z.object({
  facebookUserId: z.coerce.string().min(1).max(100),
  facebookUserToken: z.string().min(10).max(2000),
  addInstagram: z.preprocess((v) => v === true || v === 'true', z.boolean()).default(false),
  /** Queues given to every Page this login adds: without one, its tickets reach only admins and `allTicket` users. */
  queueIds: z.array(z.coerce.number().int().positive()).max(100).default([]),
});
export type FacebookConnectBody = z.input<typeof facebookConnectBody>;

/** `company-{id}-whatsappSession`. */
export const whatsappSessionSchema = z.object({
  id: z.number(),
  status: connectionStatusSchema,
  qrcode: z.string(),
  retries: z.number(),
  number: z.string(),
});
export type WhatsappSession = z.infer<typeof whatsappSessionSchema>;
export interface WhatsappSessionEventPayload {
  action: 'update';
  session: WhatsappSession;
}

/** `company-{id}-whatsapp`: the connection without its token and QR code (merge it into the cached one). */
export type WhatsappEventPayload = { action: 'update' | 'create'; whatsapp: Whatsapp } | { action: 'delete'; whatsappId: number };

/** `importMessages-{companyId}`: progress of a history import, then a refresh when it ends. */
export type ImportMessagesEventPayload =
  | { action: 'update'; status: { this: number; all: number; date: string; percent: number }; whatsappId: number }
  | { action: 'refresh'; whatsappId: number };
