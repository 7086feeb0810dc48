import { MEDIA_TYPES, SEND_STATUSES } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';
import { contacts } from './contacts.js';
import { queues } from './queues.js';
import { tickets } from './tickets.js';
import { whatsapps } from './whatsapps.js';

/**
 * Every message of a ticket, received or sent. An outgoing row is also its own
 * outbox entry: written with ack 0 and `send_status = 'pending'` before the send.
 */
export const messages = pgTable(
  'messages',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    /** The channel's message id; null on an outgoing row until the channel assigns one. */
    wid: text('wid'),
    body: text('body').notNull().default(''),
    fromMe: boolean('from_me').notNull().default(false),
    read: boolean('read').notNull().default(false),
    ack: integer('ack').notNull().default(0),
    mediaType: text('media_type', { enum: MEDIA_TYPES }).notNull().default('chat'),
    /** File name under DATA_DIR/public/company{id}/ (the API answers the full URL). */
    mediaUrl: text('media_url'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    isEdited: boolean('is_edited').notNull().default(false),
    isForwarded: boolean('is_forwarded').notNull().default(false),
    isPrivate: boolean('is_private').notNull().default(false),
    quotedMsgId: integer('quoted_msg_id'),
    /** The raw channel payload, for debugging and later re-parsing. */
    data: jsonb('data'),
    sendStatus: text('send_status', { enum: SEND_STATUSES }),
    sendAttempts: integer('send_attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    /** Claimed by a batch send (`outbound-deliver-batch.ts`) at this time; cleared with its outcome. */
    batchClaimedAt: timestamp('batch_claimed_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    // Idempotency: a redelivered webhook or a reconnect replay never creates a second row.
    unique('messages_whatsapp_wid_key').on(t.whatsappId, t.wid),
    index('messages_ticket_id_idx').on(t.ticketId, t.createdAt),
    index('messages_company_id_idx').on(t.companyId, t.createdAt),
    // GET /messages-allMe: a company's public messages of one direction in a date range, counted index-only.
    index('messages_company_direction_idx').on(t.companyId, t.fromMe, t.createdAt).where(sql`NOT is_private`),
    // "Search inside messages" (GET /tickets?searchOnMessages=true): full-text, language-neutral.
    index('messages_body_fts_idx').using('gin', sql`to_tsvector('simple', ${t.body})`),
    // The outbox sweeper's scan.
    index('messages_outbox_idx').on(t.nextAttemptAt).where(sql`send_status = 'pending'`),
    // Batch sends a crash interrupted.
    index('messages_batch_claimed_idx').on(t.batchClaimedAt).where(sql`batch_claimed_at IS NOT NULL`),
  ],
);

/**
 * Meta webhook deliveries, stored before the 200 so nothing acknowledged is lost;
 * processed right after, and again by the sweeper if the process died first.
 */
export const inboundEvents = pgTable(
  'inbound_events',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    source: text('source').notNull(),
    payload: jsonb('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** A worker holds the row until then; after it, the sweeper may take it over. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('inbound_events_pending_idx').on(t.receivedAt).where(sql`processed_at IS NULL`)],
);
