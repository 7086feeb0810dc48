import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Single row (id 1): the version the web app compares with its cached one. */
export const versions = pgTable('versions', {
  id: integer('id').primaryKey().default(1),
  version: text('version').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
