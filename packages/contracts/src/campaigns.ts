import { z } from 'zod';
import { idParam, pageQuery } from './validation.js';

/** Contact lists, campaigns and campaign settings (spec 3 §2, §3, §4, §5, §7, §9; issue 17). */

export const CONTACT_LISTS_PAGE_SIZE = 20;
export const CONTACT_LIST_ITEMS_PAGE_SIZE = 40;
export const CAMPAIGNS_PAGE_SIZE = 20;
const MSG = { required: 'Required', tooShort: 'Too Short!', tooLong: 'Too Long!', invalidEmail: 'Invalid email' } as const;

const name2to50 = z.string({ error: MSG.required }).trim().min(1, { error: MSG.required, abort: true }).min(2, MSG.tooShort).max(50, MSG.tooLong);

// ── Contact lists ──

export const contactListSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  contactsCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactList = z.infer<typeof contactListSchema>;
export const contactListBody = z.object({ name: name2to50 });
export type ContactListBody = z.input<typeof contactListBody>;
export const contactListPageResponse = z.object({ records: z.array(contactListSchema), count: z.number(), hasMore: z.boolean() });
export type ContactListPage = z.infer<typeof contactListPageResponse>;
/** `GET /contact-lists/list`: `companyId` is accepted and ignored (the token says). */
export const contactListListQuery = z.object({ companyId: z.unknown().optional() });

export const contactListItemSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  contactListId: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  /** null: not checked yet (no connected WhatsApp session, or the check is pending). */
  isWhatsappValid: z.boolean().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactListItem = z.infer<typeof contactListItemSchema>;
const itemEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(120, MSG.tooLong)
  .refine((v) => v === '' || z.email().safeParse(v).success, MSG.invalidEmail)
  .optional()
  .default('');
const itemNumber = z.string({ error: MSG.required }).trim().min(8, MSG.tooShort).max(50, MSG.tooLong);
/** `POST /contact-list-items` (`companyId` accepted and ignored). */
export const createContactListItemBody = z.object({
  name: name2to50,
  number: itemNumber,
  email: itemEmail,
  contactListId: idParam,
  companyId: z.unknown().optional(),
});
export type CreateContactListItemBody = z.input<typeof createContactListItemBody>;
/** `PUT /contact-list-items/{id}`: the item moves to no other list. */
export const updateContactListItemBody = z.object({ name: name2to50, number: itemNumber, email: itemEmail, companyId: z.unknown().optional(), contactListId: z.unknown().optional() });
export type UpdateContactListItemBody = z.input<typeof updateContactListItemBody>;
export const contactListItemsQuery = pageQuery.extend({ contactListId: idParam });
export const contactListItemPageResponse = z.object({ contacts: z.array(contactListItemSchema), count: z.number(), hasMore: z.boolean() });
export type ContactListItemPage = z.infer<typeof contactListItemPageResponse>;
/** `POST /contact-lists/{id}/upload`: what the spreadsheet gave. */
export const contactListUploadResult = z.object({ created: z.number(), updated: z.number(), ignored: z.number(), total: z.number() });
export type ContactListUploadResult = z.infer<typeof contactListUploadResult>;

// ── Campaign settings (spec 3 §3, §9) ──

export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;
export const LONGER_INTERVAL_AFTER_OPTIONS = [0, 5, 10, 15, 20, 30, 40, 50, 60] as const;
export const GREATER_INTERVAL_OPTIONS = [0, 40, 60, 80, 100, 120, 140, 160, 180, 200] as const;
export const CAMPAIGN_VARIABLE_NAME = /^[a-zA-Z0-9_]{1,30}$/;
/** {nome}, {numero}, {email}: always available; custom ones come from the settings. */
export const CAMPAIGN_BUILTIN_VARIABLES = ['nome', 'numero', 'email'] as const;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const oneOf = (options: readonly number[]) =>
  z.coerce
    .number()
    .int()
    .refine((n) => options.includes(n), `one of ${options.join(', ')}`);
const boolText = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true');
export const campaignVariableSchema = z.object({
  key: z.string().trim().regex(CAMPAIGN_VARIABLE_NAME, 'letters, digits and _ only'),
  value: z.string().max(1000),
});
export type CampaignVariable = z.infer<typeof campaignVariableSchema>;

/** The settings as the engine reads them. */
export const campaignSettingsSchema = z.object({
  messageInterval: z.number(),
  longerIntervalAfter: z.number(),
  greaterInterval: z.number(),
  variables: z.array(campaignVariableSchema),
  sabado: z.boolean(),
  domingo: z.boolean(),
  startHour: z.string(),
  endHour: z.string(),
});
export type CampaignSettings = z.infer<typeof campaignSettingsSchema>;
export const DEFAULT_CAMPAIGN_SETTINGS: CampaignSettings = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [],
  sabado: false,
  domingo: false,
  startHour: '09:00',
  endHour: '18:00',
};
/** `POST /campaign-settings` `{ settings }`: the keys sent change, the rest keep their values. */
export const campaignSettingsBody = z.object({
  settings: z
    .object({
      messageInterval: oneOf(MESSAGE_INTERVAL_OPTIONS),
      longerIntervalAfter: oneOf(LONGER_INTERVAL_AFTER_OPTIONS),
      greaterInterval: oneOf(GREATER_INTERVAL_OPTIONS),
      variables: z.array(campaignVariableSchema).max(50),
      sabado: boolText,
      domingo: boolText,
      startHour: z.string().regex(HHMM, 'HH:mm'),
      endHour: z.string().regex(HHMM, 'HH:mm'),
    })
    .partial()
    .refine((s) => !s.startHour || !s.endHour || s.startHour < s.endHour, { message: 'startHour must be before endHour', path: ['endHour'] }),
});
export type CampaignSettingsBody = z.input<typeof campaignSettingsBody>;
/** `GET /campaign-settings`: the key/value list (values as text, `variables` as JSON text). */
export const campaignSettingRowSchema = z.object({ id: z.number(), key: z.string(), value: z.string() });
export type CampaignSettingRow = z.infer<typeof campaignSettingRowSchema>;

// ── Campaigns ──

export const CAMPAIGN_STATUSES = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const CAMPAIGN_TICKET_STATUSES = ['closed', 'pending', 'open'] as const;
/** A campaign is editable this long before its schedule (spec 3 §4). */
export const CAMPAIGN_EDIT_LEAD_MS = 60 * 60 * 1000;
/** The report reads the campaign again this long after a live FINALIZADA (spec 3 §4, §9). */
export const REPORT_REFRESH_AFTER_FINISH_MS = 5000;
export const CAMPAIGN_MESSAGE_FIELDS = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;
export const CAMPAIGN_CONFIRMATION_FIELDS = [
  'confirmationMessage1',
  'confirmationMessage2',
  'confirmationMessage3',
  'confirmationMessage4',
  'confirmationMessage5',
] as const;

/** Editable: INATIVA, PROGRAMADA more than an hour ahead, or CANCELADA (which still saves and restarts). */
export function campaignEditable(c: { status: CampaignStatus; scheduledAt: string | null }, now = Date.now()): boolean {
  if (c.status === 'INATIVA' || c.status === 'CANCELADA') return true;
  if (c.status !== 'PROGRAMADA' || !c.scheduledAt) return false;
  return new Date(c.scheduledAt).getTime() - now > CAMPAIGN_EDIT_LEAD_MS;
}

const messageText = z.string().max(5000).nullable().optional();
/** `YYYY-MM-DD HH:mm:ss` (server local time) as the modal sends it, or an ISO date. */
const SCHEDULE_TEXT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?/;
const scheduleField = z
  .string()
  .trim()
  .refine((v) => v === '' || (SCHEDULE_TEXT.test(v) && !Number.isNaN(new Date(v.replace(' ', 'T')).getTime())), 'YYYY-MM-DD HH:mm:ss')
  .nullable()
  .optional();
const optionalId = z.preprocess((v) => (v === '' || v === 'Nenhuma' ? null : v), idParam.nullable().optional());

/** `POST /campaigns` and `PUT /campaigns/{id}` (empty strings arrive as null). */
export const campaignBody = z
  .object({
    name: name2to50,
    message1: messageText,
    message2: messageText,
    message3: messageText,
    message4: messageText,
    message5: messageText,
    confirmationMessage1: messageText,
    confirmationMessage2: messageText,
    confirmationMessage3: messageText,
    confirmationMessage4: messageText,
    confirmationMessage5: messageText,
    confirmation: z.boolean().optional().default(false),
    scheduledAt: scheduleField,
    contactListId: optionalId,
    tagListId: optionalId,
    whatsappId: optionalId,
    userId: optionalId,
    queueId: optionalId,
    statusTicket: z.enum(CAMPAIGN_TICKET_STATUSES).optional().default('closed'),
    openTicket: z.enum(['enabled', 'disabled']).optional().default('disabled'),
    companyId: z.unknown().optional(),
  })
  .refine((b) => !b.userId || b.queueId, { message: 'Informe o setor', path: ['queueId'] });
export type CampaignBody = z.input<typeof campaignBody>;

export const campaignSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  message1: z.string().nullable(),
  message2: z.string().nullable(),
  message3: z.string().nullable(),
  message4: z.string().nullable(),
  message5: z.string().nullable(),
  confirmationMessage1: z.string().nullable(),
  confirmationMessage2: z.string().nullable(),
  confirmationMessage3: z.string().nullable(),
  confirmationMessage4: z.string().nullable(),
  confirmationMessage5: z.string().nullable(),
  status: z.enum(CAMPAIGN_STATUSES),
  confirmation: z.boolean(),
  scheduledAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  contactListId: z.number().nullable(),
  contactList: z.object({ id: z.number(), name: z.string() }).nullable(),
  tagListId: z.number().nullable(),
  whatsappId: z.number().nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  userId: z.number().nullable(),
  queueId: z.number().nullable(),
  statusTicket: z.enum(CAMPAIGN_TICKET_STATUSES),
  openTicket: z.enum(['enabled', 'disabled']),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Campaign = z.infer<typeof campaignSchema>;
/** `GET /campaigns/{id}`: the report's figures with it. */
export const campaignReportSchema = campaignSchema.extend({
  /** Contacts the campaign goes to whose number is not known to be invalid on WhatsApp. */
  validContacts: z.number(),
  confirmationRequested: z.number(),
  confirmed: z.number(),
  delivered: z.number(),
});
export type CampaignReport = z.infer<typeof campaignReportSchema>;
export const campaignPageResponse = z.object({ records: z.array(campaignSchema), count: z.number(), hasMore: z.boolean() });
export type CampaignPage = z.infer<typeof campaignPageResponse>;
export const campaignsQuery = pageQuery;
export const campaignIdParams = z.object({ id: idParam });
