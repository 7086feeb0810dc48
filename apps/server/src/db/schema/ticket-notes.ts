import { TICKET_LOG_TYPES } from '@balcao/contracts';
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';
import { contacts } from './contacts.js';
import { queues } from './queues.js';
import { tickets } from './tickets.js';
import { users } from './users.js';

/** Notes an attendant writes about a contact within a ticket (the contact drawer). */
export const ticketNotes = pgTable(
  'ticket_notes',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    note: text('note').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id').references(() => tickets.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('ticket_notes_contact_id_idx').on(t.contactId, t.createdAt)],
);

/** One row per ticket transition (spec 2 §3 "Ticket log entry"); the ticket-log dialog lists them. */
export const ticketLogs = pgTable(
  'ticket_logs',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    type: text('type', { enum: TICKET_LOG_TYPES }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ticket_logs_ticket_id_idx').on(t.ticketId, t.createdAt)],
);
