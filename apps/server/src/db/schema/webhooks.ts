import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';

/** Outbound webhooks (docs/webhooks.md): a URL an admin registered for some events, with its signing secret. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    // Sealed with the data key (secrets.ts): the plain secret signs, so it cannot be a hash.
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    ...timestamps,
  },
  (t) => [index('webhook_endpoints_company_idx').on(t.companyId)],
);

/** The outbox: one row per event per endpoint, sent (and retried) by the `webhook-deliver` job. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    // Null until the event is presented after the commit (the row itself is written in the change's transaction).
    payload: jsonb('payload'),
    // What the delivery is about (`{ ticketId, previousStatus, status }`, `{ messageId }`…): matches the presented event, or presents it after a crash.
    ref: jsonb('ref'),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    // When it is due; while a send is in flight, the end of its lease (a crash frees the row then).
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_pending_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('webhook_deliveries_unfilled_idx').on(t.companyId, t.event, t.ref).where(sql`payload IS NULL`),
  ],
);
