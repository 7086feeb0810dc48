import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { tickets } from './tickets.js';

/** One customer message at a time through a ticket's connection behaviours (behaviours/turn.ts, docs/chatbots.md). */
export const ticketTurns = pgTable('ticket_turns', {
  ticketId: integer('ticket_id')
    .primaryKey()
    .references(() => tickets.id, { onDelete: 'cascade' }),
  /** The last customer message whose behaviours ran. */
  lastMessageId: integer('last_message_id'),
  /** Held by the message whose behaviours run now; a crashed node's lease runs out. */
  leasedUntil: timestamp('leased_until', { withTimezone: true }),
});
