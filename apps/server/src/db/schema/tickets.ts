import { CHANNELS, TICKET_STATUSES } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';
import { contacts } from './contacts.js';
import { queues } from './queues.js';
import { users } from './users.js';
import { whatsapps } from './whatsapps.js';

/** The partial unique index's predicate, also the ON CONFLICT target's (it must match the index text). */
export const ACTIVE_TICKET_PREDICATE = sql.raw(`status IN ('pending', 'open', 'group', 'nps', 'lgpd')`);

export const tickets = pgTable(
  'tickets',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    status: text('status', { enum: TICKET_STATUSES }).notNull().default('pending'),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    isGroup: boolean('is_group').notNull().default(false),
    channel: text('channel', { enum: CHANNELS }).notNull().default('whatsapp'),
    lastMessage: text('last_message').notNull().default(''),
    /** When the last message (either side) was stored, and whose it was: the expiry and inactivity timers read them. */
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageFromMe: boolean('last_message_from_me').notNull().default(false),
    unreadMessages: integer('unread_messages').notNull().default(0),
    useIntegration: boolean('use_integration').notNull().default(false),
    /** Automation state (issue 16): the integration talking to the customer, its Typebot session, and the bot's place in the queue's option tree. */
    integrationId: integer('integration_id'),
    typebotSessionId: text('typebot_session_id'),
    typebotSessionAt: timestamp('typebot_session_at', { withTimezone: true }),
    chatbotId: integer('chatbot_id'),
    /** An integration handed the ticket over to a human (gave up or ended): the connection's integration leaves it alone. */
    integrationStoppedAt: timestamp('integration_stopped_at', { withTimezone: true }),
    botAttempts: integer('bot_attempts').notNull().default(0),
    botStartedAt: timestamp('bot_started_at', { withTimezone: true }),
    /** The AI prompt step handed the ticket to its queue (migration 0028): the step skips it until it reopens. */
    promptHandedOverAt: timestamp('prompt_handed_over_at', { withTimezone: true }),
    /** When the queue chatbot stopped leading the customer (migration 0020); null while it still does. */
    botFinishedAt: timestamp('bot_finished_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** Set on tickets created by a history import ("close imported tickets" closes them). */
    importedAt: timestamp('imported_at', { withTimezone: true }),
    /** Connection behaviours already run for this ticket (each once per ticket). */
    outOfHoursSentAt: timestamp('out_of_hours_sent_at', { withTimezone: true }),
    vacationSentAt: timestamp('vacation_sent_at', { withTimezone: true }),
    inactiveMessageSentAt: timestamp('inactive_message_sent_at', { withTimezone: true }),
    /** NPS exchange: when the rating message went out, and invalid answers since. */
    ratingRequestedAt: timestamp('rating_requested_at', { withTimezone: true }),
    npsAttempts: integer('nps_attempts').notNull().default(0),
    /**
     * What the dashboard reads (docs/dashboard.md), kept by database triggers from the log and rating rows
     * (migration 0014): when an attendant first took the ticket, whether one started it, the NPS answer.
     */
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    startedByUser: boolean('started_by_user').notNull().default(false),
    rate: integer('rate'),
    ...timestamps,
  },
  (t) => [
    // At most one live ticket per contact and connection: concurrent first messages converge on it.
    uniqueIndex('tickets_one_active_per_contact_key')
      .on(t.contactId, t.whatsappId)
      .where(ACTIVE_TICKET_PREDICATE),
    // The inbox tabs in list order (updatedAt, id). Migration 0026 adds INCLUDE (queue_id, user_id) to this
    // one and INCLUDE (queue_id) to the two below, so the walks (tag filters included) read no table rows.
    index('tickets_company_id_idx').on(t.companyId, t.status, t.updatedAt, t.id),
    // The inbox's search view (every status) in updatedAt order: the company's, and a user's own.
    index('tickets_company_updated_idx').on(t.companyId, t.updatedAt),
    // Reports and export: a company's tickets by opening time. Migration 0034 adds INCLUDE (status, is_group,
    // user_id, queue_id, whatsapp_id, rate): the report's filters and visibility read no table rows.
    index('tickets_company_created_idx').on(t.companyId, t.createdAt),
    index('tickets_company_user_updated_idx').on(t.companyId, t.userId, t.updatedAt),
    // The inbox's visibility branches: own tickets, and tickets of the user's queues.
    index('tickets_company_user_idx').on(t.companyId, t.userId, t.status, t.updatedAt, t.id),
    index('tickets_company_queue_idx').on(t.companyId, t.queueId, t.status, t.updatedAt),
    // A tab's unassigned tickets in updatedAt order (`user_id IS NULL` is no equality, so the index above cannot give that order).
    index('tickets_company_unassigned_idx').on(t.companyId, t.status, t.updatedAt, t.id).where(sql`user_id IS NULL`),
    // A tag filter's matches probe tickets by id from ticket_tags; migration 0042 makes it INCLUDE (company_id, status,
    // user_id, queue_id, updated_at) so the probe reads no table row.
    index('tickets_id_list_idx').on(t.id),
    index('tickets_contact_id_idx').on(t.contactId, t.whatsappId, t.closedAt),
    // Expiry / inactivity / NPS timers scan live tickets of a connection by age.
    index('tickets_whatsapp_timers_idx').on(t.whatsappId, t.status, t.lastMessageAt),
  ],
);

/** The NPS answer (0–10) a customer gave after a ticket closed. */
export const ticketRatings = pgTable(
  'ticket_ratings',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .unique()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    rate: integer('rate').notNull(),
    ...timestamps,
  },
  (t) => [index('ticket_ratings_company_id_idx').on(t.companyId, t.createdAt)],
);
