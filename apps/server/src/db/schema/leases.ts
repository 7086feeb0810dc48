import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { whatsapps } from './whatsapps.js';

/** Which API node runs each WhatsApp session (docs/operations.md, "Session leases"). */
export const whatsappSessionLeases = pgTable(
  'whatsapp_session_leases',
  {
    whatsappId: integer('whatsapp_id')
      .primaryKey()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    nodeId: text('node_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('whatsapp_session_leases_expires_idx').on(t.expiresAt)],
);
