import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';
import { contacts } from './contacts.js';
import { queues } from './queues.js';
import { tags } from './tags.js';
import { users } from './users.js';
import { whatsapps } from './whatsapps.js';

/** Contact lists (spec 3 §3): people a campaign goes to, apart from the contacts of the inbox. */
export const contactLists = pgTable(
  'contact_lists',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [index('contact_lists_company_name_idx').on(t.companyId, t.name)],
);

/** One person of a list; a number appears once per list. `isWhatsappValid` null: not checked (yet). */
export const contactListItems = pgTable(
  'contact_list_items',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    contactListId: integer('contact_list_id')
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    number: text('number').notNull(),
    email: text('email').notNull().default(''),
    isWhatsappValid: boolean('is_whatsapp_valid'),
    ...timestamps,
  },
  (t) => [
    unique('contact_list_items_list_number_key').on(t.contactListId, t.number),
    index('contact_list_items_list_name_idx').on(t.contactListId, t.name),
    index('contact_list_items_unchecked_idx').on(t.companyId).where(sql`is_whatsapp_valid IS NULL`),
  ],
);

export const CAMPAIGN_STATUS_VALUES = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;

/** A campaign (spec 3 §3); `nextRunAt` is the engine's: when its next message may go (also a lease while a tick runs). */
export const campaigns = pgTable(
  'campaigns',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    message1: text('message1'),
    message2: text('message2'),
    message3: text('message3'),
    message4: text('message4'),
    message5: text('message5'),
    confirmationMessage1: text('confirmation_message1'),
    confirmationMessage2: text('confirmation_message2'),
    confirmationMessage3: text('confirmation_message3'),
    confirmationMessage4: text('confirmation_message4'),
    confirmationMessage5: text('confirmation_message5'),
    status: text('status', { enum: CAMPAIGN_STATUS_VALUES }).notNull().default('INATIVA'),
    confirmation: boolean('confirmation').notNull().default(false),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    contactListId: integer('contact_list_id').references(() => contactLists.id, { onDelete: 'set null' }),
    tagListId: integer('tag_list_id').references(() => tags.id, { onDelete: 'set null' }),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    statusTicket: text('status_ticket', { enum: ['closed', 'pending', 'open'] })
      .notNull()
      .default('closed'),
    openTicket: text('open_ticket', { enum: ['enabled', 'disabled'] })
      .notNull()
      .default('disabled'),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    /** Messages sent since the last long break (`greaterInterval` after `longerIntervalAfter`). */
    sentSinceBreak: integer('sent_since_break').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('campaigns_company_idx').on(t.companyId, t.id), index('campaigns_due_idx').on(t.status, t.nextRunAt)],
);

/** Campaign settings (spec 3 §3): a key/value list per company. */
export const campaignSettings = pgTable(
  'campaign_settings',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
    ...timestamps,
  },
  (t) => [unique('campaign_settings_company_key').on(t.companyId, t.key)],
);

/**
 * One shipping per campaign and number (the unique key makes "exactly once" a database fact):
 * `messageId` is set in the transaction that stores the campaign message in the outbox,
 * `confirmationMessageId` likewise for the confirmation request.
 */
export const campaignShipping = pgTable(
  'campaign_shipping',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    name: text('name').notNull().default(''),
    email: text('email').notNull().default(''),
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    ticketId: integer('ticket_id'),
    messageId: integer('message_id'),
    confirmationMessageId: integer('confirmation_message_id'),
    confirmationRequestedAt: timestamp('confirmation_requested_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** A failure that makes the engine skip this number (no contact on the channel, blocked contact). */
    error: text('error'),
    ...timestamps,
  },
  (t) => [
    unique('campaign_shipping_campaign_number_key').on(t.campaignId, t.number),
    index('campaign_shipping_pending_idx').on(t.campaignId, t.id).where(sql`delivered_at IS NULL AND confirmation_requested_at IS NULL AND error IS NULL`),
    index('campaign_shipping_awaiting_idx').on(t.contactId).where(sql`confirmation_requested_at IS NOT NULL AND confirmed_at IS NULL`),
  ],
);
