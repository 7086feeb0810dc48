import { CONNECTION_STATUSES, CHANNELS, type ConnectionSchedule } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';
import { queues } from './queues.js';

/** A channel connection (spec 1 §3 "Connection"): a WhatsApp number, a Facebook Page or an Instagram account. */
export const whatsapps = pgTable(
  'whatsapps',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    channel: text('channel', { enum: CHANNELS }).notNull().default('whatsapp'),
    status: text('status', { enum: CONNECTION_STATUSES }).notNull().default('OPENING'),
    qrcode: text('qrcode').notNull().default(''),
    retries: integer('retries').notNull().default(0),
    number: text('number').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    provider: text('provider').notNull().default('beta'),
    // External API credential (30 alphanumerics); shown only to those who may edit the connection.
    token: text('token').notNull(),
    // Meta: the Page (and, for Instagram, the professional account) this connection answers for.
    facebookPageId: text('facebook_page_id'),
    instagramAccountId: text('instagram_account_id'),
    // Never sent to clients.
    facebookPageToken: text('facebook_page_token'),
    greetingMessage: text('greeting_message').notNull().default(''),
    complationMessage: text('complation_message').notNull().default(''),
    outOfHoursMessage: text('out_of_hours_message').notNull().default(''),
    ratingMessage: text('rating_message').notNull().default(''),
    maxUseBotQueues: integer('max_use_bot_queues').notNull().default(3),
    timeUseBotQueues: integer('time_use_bot_queues').notNull().default(0),
    timeSendQueue: integer('time_send_queue').notNull().default(0),
    sendIdQueue: integer('send_id_queue').references(() => queues.id, { onDelete: 'set null' }),
    expiresTicket: integer('expires_ticket').notNull().default(0),
    whenExpiresTicket: text('when_expires_ticket', { enum: ['0', '1'] }).notNull().default('0'),
    expiresTicketNPS: integer('expires_ticket_nps').notNull().default(0),
    maxUseBotQueuesNPS: integer('max_use_bot_queues_nps').notNull().default(3),
    expiresInactiveMessage: text('expires_inactive_message').notNull().default(''),
    timeInactiveMessage: integer('time_inactive_message').notNull().default(0),
    inactiveMessage: text('inactive_message').notNull().default(''),
    timeCreateNewTicket: integer('time_create_new_ticket').notNull().default(0),
    allowGroup: boolean('allow_group').notNull().default(false),
    groupAsTicket: text('group_as_ticket', { enum: ['enabled', 'disabled'] }).notNull().default('disabled'),
    enableImportMessage: boolean('enable_import_message').notNull().default(false),
    importOldMessages: timestamp('import_old_messages', { withTimezone: true }),
    importRecentMessages: timestamp('import_recent_messages', { withTimezone: true }),
    importOldMessagesGroups: boolean('import_old_messages_groups').notNull().default(false),
    closedTicketsPostImported: boolean('closed_tickets_post_imported').notNull().default(false),
    queueIdImportMessages: integer('queue_id_import_messages').references(() => queues.id, { onDelete: 'set null' }),
    statusImportMessages: text('status_import_messages'),
    // Queue integrations and AI prompts arrive with later issues; plain ids until then.
    integrationId: integer('integration_id'),
    promptId: integer('prompt_id'),
    greetingMediaAttachment: text('greeting_media_attachment'),
    collectiveVacationStart: timestamp('collective_vacation_start', { withTimezone: true }),
    collectiveVacationEnd: timestamp('collective_vacation_end', { withTimezone: true }),
    collectiveVacationMessage: text('collective_vacation_message').notNull().default(''),
    schedules: jsonb('schedules').$type<ConnectionSchedule[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [
    index('whatsapps_company_id_idx').on(t.companyId, t.channel),
    uniqueIndex('whatsapps_token_key').on(t.token),
    // Webhook routing: one connection per Page (Messenger) and per IG account.
    uniqueIndex('whatsapps_facebook_page_key').on(t.facebookPageId).where(sql`channel = 'facebook'`),
    uniqueIndex('whatsapps_instagram_account_key').on(t.instagramAccountId).where(sql`channel = 'instagram'`),
    // At most one default connection per company.
    uniqueIndex('whatsapps_default_key').on(t.companyId).where(sql`is_default`),
  ],
);

export const whatsappQueues = pgTable(
  'whatsapp_queues',
  {
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.queueId] }), index('whatsapp_queues_company_id_idx').on(t.companyId, t.queueId)],
);

/**
 * Baileys auth state, one row per key: `creds` plus every signal key (`{type}-{id}`),
 * serialised with Baileys' BufferJSON. Kept in the database so a restart needs no new scan.
 * Never read by any API presenter.
 */
export const whatsappSessions = pgTable(
  'whatsapp_sessions',
  {
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.key] })],
);
