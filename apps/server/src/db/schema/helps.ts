import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';

/** Help videos: platform-wide, managed by the super user, watched by everyone. */
export const helps = pgTable('helps', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  title: text('title').notNull(),
  description: text('description'),
  // The video code (e.g. a YouTube id) the player embeds.
  video: text('video'),
  ...timestamps,
});
