import {
  CONNECTION_TOKEN_LENGTH,
  DEFAULT_MAX_USE_BOT_QUEUES,
  DEFAULT_WEEK_SCHEDULE,
  GREETING_MEDIA_TYPES,
  IMPORT_PREPARING_MS,
  IMPORT_STATUS_RENDER_CLOSE,
  IMPORT_STATUS_RUNNING,
  IMPORT_WINDOW_YEARS,
  VACATION_MIN_DAYS_AGO,
  type Channel,
  type ConnectionSchedule,
  type Whatsapp,
} from '@balcao/contracts';

/**
 * The connection dialog's field values as the inputs hold them: texts, numbers
 * typed as text, dates as YYYY-MM-DD, chosen records as their id or null. The
 * contract's `whatsappFormSchema` turns them into the request (the same schema
 * the server validates with).
 */
export interface ConnectionFormState {
  name: string;
  channel: Channel;
  isDefault: boolean;
  provider: string;
  token: string;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  maxUseBotQueues: string;
  timeUseBotQueues: string;
  timeSendQueue: string;
  sendIdQueue: number | null;
  expiresTicket: string;
  whenExpiresTicket: '0' | '1';
  expiresTicketNPS: string;
  maxUseBotQueuesNPS: string;
  expiresInactiveMessage: string;
  timeInactiveMessage: string;
  inactiveMessage: string;
  timeCreateNewTicket: string;
  allowGroup: boolean;
  groupAsTicket: 'enabled' | 'disabled';
  enableImportMessage: boolean;
  importOldMessages: string;
  importRecentMessages: string;
  importOldMessagesGroups: boolean;
  closedTicketsPostImported: boolean;
  queueIdImportMessages: number | null;
  integrationId: number | null;
  promptId: number | null;
  collectiveVacationStart: string;
  collectiveVacationEnd: string;
  collectiveVacationMessage: string;
  queueIds: number[];
  schedules: ConnectionSchedule[];
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 30 random letters and digits (spec 1 §3, §9), from the browser's CSPRNG. */
export function generateToken(random: (n: number) => Uint32Array = (n) => crypto.getRandomValues(new Uint32Array(n))): string {
  const values = random(CONNECTION_TOKEN_LENGTH);
  return Array.from(values, (v) => ALPHANUMERIC[v % ALPHANUMERIC.length]).join('');
}

/** YYYY-MM-DD of a stored timestamp (the form sends dates as UTC midnights, so read them back in UTC). */
export function dateInput(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10);
}

/** YYYY-MM-DD in UTC, for the inputs' min/max. */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function importWindow(now = new Date()): { min: string; max: string } {
  const min = new Date(now);
  min.setUTCFullYear(min.getUTCFullYear() - IMPORT_WINDOW_YEARS);
  // The contract counts 365.25-day years: stay a day inside it.
  min.setUTCDate(min.getUTCDate() + 1);
  return { min: isoDay(min), max: isoDay(now) };
}

export function vacationMin(now = new Date()): string {
  return isoDay(new Date(now.getTime() - VACATION_MIN_DAYS_AGO * 24 * 3600 * 1000));
}

const num = (v: number | null | undefined, fallback = 0) => String(v ?? fallback);
/** A chosen record's id; none (null, or the 0 some clients store) is null. */
const id = (v: number | null | undefined) => v || null;

/** The form of a new connection (token generated here, as the dialog shows it) or of a stored one. */
export function formDefaults(connection: Whatsapp | null, opts: { channel?: Channel; withSchedules?: boolean } = {}): ConnectionFormState {
  const c = connection;
  const schedules = c?.schedules?.length ? c.schedules : opts.withSchedules ? DEFAULT_WEEK_SCHEDULE.map((d) => ({ ...d })) : [];
  return {
    name: c?.name ?? '',
    channel: c?.channel ?? opts.channel ?? 'whatsapp',
    isDefault: c?.isDefault ?? false,
    provider: c?.provider ?? 'beta',
    token: c ? (c.token ?? '') : generateToken(),
    greetingMessage: c?.greetingMessage ?? '',
    complationMessage: c?.complationMessage ?? '',
    outOfHoursMessage: c?.outOfHoursMessage ?? '',
    ratingMessage: c?.ratingMessage ?? '',
    maxUseBotQueues: num(c?.maxUseBotQueues, DEFAULT_MAX_USE_BOT_QUEUES),
    timeUseBotQueues: num(c?.timeUseBotQueues),
    timeSendQueue: num(c?.timeSendQueue),
    sendIdQueue: id(c?.sendIdQueue),
    expiresTicket: num(c?.expiresTicket),
    whenExpiresTicket: c?.whenExpiresTicket ?? '0',
    expiresTicketNPS: num(c?.expiresTicketNPS),
    maxUseBotQueuesNPS: num(c?.maxUseBotQueuesNPS, DEFAULT_MAX_USE_BOT_QUEUES),
    expiresInactiveMessage: c?.expiresInactiveMessage ?? '',
    timeInactiveMessage: num(c?.timeInactiveMessage),
    inactiveMessage: c?.inactiveMessage ?? '',
    timeCreateNewTicket: num(c?.timeCreateNewTicket),
    allowGroup: c?.allowGroup ?? false,
    groupAsTicket: c?.groupAsTicket ?? 'disabled',
    enableImportMessage: c?.enableImportMessage ?? false,
    importOldMessages: dateInput(c?.importOldMessages),
    importRecentMessages: dateInput(c?.importRecentMessages),
    importOldMessagesGroups: c?.importOldMessagesGroups ?? false,
    closedTicketsPostImported: c?.closedTicketsPostImported ?? false,
    queueIdImportMessages: id(c?.queueIdImportMessages),
    integrationId: id(c?.integrationId),
    promptId: id(c?.promptId),
    collectiveVacationStart: dateInput(c?.collectiveVacationStart),
    collectiveVacationEnd: dateInput(c?.collectiveVacationEnd),
    collectiveVacationMessage: c?.collectiveVacationMessage ?? '',
    queueIds: c?.queues?.map((q) => q.id) ?? [],
    schedules: schedules.map((s) => ({ ...s })),
  };
}

/** The dialog's tab of each field: a failed submit opens the first tab with an error. */
export type ConnectionTab = 'general' | 'integrations' | 'messages' | 'chatbot' | 'assessments' | 'schedules';

const FIELD_TABS: Partial<Record<keyof ConnectionFormState, ConnectionTab>> = {
  integrationId: 'integrations',
  promptId: 'integrations',
  greetingMessage: 'messages',
  complationMessage: 'messages',
  outOfHoursMessage: 'messages',
  collectiveVacationStart: 'messages',
  collectiveVacationEnd: 'messages',
  collectiveVacationMessage: 'messages',
  timeSendQueue: 'chatbot',
  sendIdQueue: 'chatbot',
  maxUseBotQueues: 'chatbot',
  timeUseBotQueues: 'chatbot',
  expiresTicket: 'chatbot',
  whenExpiresTicket: 'chatbot',
  expiresInactiveMessage: 'chatbot',
  timeInactiveMessage: 'chatbot',
  inactiveMessage: 'chatbot',
  timeCreateNewTicket: 'chatbot',
  ratingMessage: 'assessments',
  expiresTicketNPS: 'assessments',
  maxUseBotQueuesNPS: 'assessments',
  schedules: 'schedules',
};

export function tabOfField(field: string): ConnectionTab {
  return FIELD_TABS[field as keyof ConnectionFormState] ?? 'general';
}

export const TAB_ORDER: ConnectionTab[] = ['general', 'integrations', 'messages', 'chatbot', 'assessments', 'schedules'];

/** The first tab (in dialog order) holding one of the failed fields. */
export function firstTabWithError(fields: string[]): ConnectionTab | null {
  const tabs = new Set(fields.map(tabOfField));
  return TAB_ORDER.find((t) => tabs.has(t)) ?? null;
}

/**
 * The contract's messages are the spec's texts ('Too Short!', 'Too Long!', shown
 * as they are), i18n keys (`whatsappModal.*`) or English rule texts translated here.
 */
export function formErrorKey(message: string | undefined): { key: string } | { text: string } | null {
  if (!message) return null;
  if (message === 'Too Short!' || message === 'Too Long!') return { text: message };
  if (message.startsWith('whatsappModal.')) return { key: message };
  if (message.startsWith('backendErrors.')) return { key: message };
  if (message === 'Required') return { key: 'whatsappModal.validation.required' };
  if (message.startsWith('between ')) return { key: 'whatsappModal.validation.importOldRange' };
  if (message.startsWith('not before the old-messages')) return { key: 'whatsappModal.validation.importRecentRange' };
  if (message.startsWith('not before ') && message.includes('days ago')) return { key: 'whatsappModal.validation.vacationMin' };
  if (message.startsWith('must not be before the start')) return { key: 'whatsappModal.validation.vacationEndBeforeStart' };
  if (message.includes('letters or digits')) return { key: 'whatsappModal.validation.token' };
  if (/number|integer|too small|too big|>=|<=/i.test(message)) return { key: 'whatsappModal.validation.number' };
  return { text: message };
}

/** A queue greeting is required when the connection has more than one queue (spec 1 §5, ERR_WAPP_GREETING_REQUIRED). */
export function greetingIssue(values: Pick<ConnectionFormState, 'queueIds' | 'greetingMessage'>): string | null {
  return values.queueIds.length > 1 && !values.greetingMessage.trim() ? 'backendErrors.ERR_WAPP_GREETING_REQUIRED' : null;
}

/** Media on the connection: image or video only (spec 1 §5). */
export function isGreetingMedia(file: { type: string }): boolean {
  return GREETING_MEDIA_TYPES.some((prefix) => file.type.startsWith(prefix));
}

/** Editing a CONNECTED connection with import enabled resets its session first (spec 1 §4). */
export function resetsSession(status: string | undefined, enableImportMessage: boolean): boolean {
  return status === 'CONNECTED' && enableImportMessage;
}

export type ImportState =
  | { kind: 'none' }
  | { kind: 'preparing'; until: number }
  | { kind: 'running' }
  | { kind: 'closeTickets' };

/**
 * What the session column shows about a history import: the close-tickets button
 * (the render-close marker), the 35 s preparing spinner after the import timestamp,
 * or a running import (spec 1 §4 "Message import").
 */
export function importState(statusImportMessages: string | null | undefined, now = Date.now()): ImportState {
  const s = statusImportMessages ?? '';
  if (!s) return { kind: 'none' };
  if (s === IMPORT_STATUS_RENDER_CLOSE) return { kind: 'closeTickets' };
  if (s === IMPORT_STATUS_RUNNING) return { kind: 'running' };
  const ts = /^\d+$/.test(s) ? Number(s) : Date.parse(s);
  if (Number.isFinite(ts)) {
    const until = ts + IMPORT_PREPARING_MS;
    // After the preparing window only the live progress tells more.
    return until > now ? { kind: 'preparing', until } : { kind: 'none' };
  }
  return { kind: 'none' };
}

/** dd/MM/yy HH:mm (spec 1 §9). */
export function formatConnectionDate(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${String(d.getFullYear()).slice(-2)} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
