import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';

/** Announcements: platform-wide, published by the super user, shown to every user in the top-bar bell. */
export const announcements = pgTable(
  'announcements',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    title: text('title').notNull(),
    text: text('text').notNull(),
    // 1 high, 2 medium, 3 low.
    priority: integer('priority').notNull().default(3),
    status: boolean('status').notNull().default(true),
    // The image's file name under DATA_DIR/public, and the name it was uploaded with.
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    ...timestamps,
  },
  (t) => [index('announcements_active_idx').on(t.status, t.priority, t.createdAt)],
);
