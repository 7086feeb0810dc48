import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';
import { users } from './users.js';

/** Quick replies (spec 2 §3): `geral` shares one with the whole company, else it is its owner's. */
export const quickMessages = pgTable(
  'quick_messages',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    shortcode: text('shortcode').notNull(),
    message: text('message').notNull().default(''),
    geral: boolean('geral').notNull().default(false),
    status: boolean('status').notNull().default(true),
    visao: boolean('visao').notNull().default(true),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    ...timestamps,
  },
  (t) => [index('quick_messages_company_id_idx').on(t.companyId, t.shortcode)],
);
