import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';
import { users } from './users.js';

/** Internal chats between staff (spec 3 §2, §3): the owner alone edits or deletes one. */
export const chats = pgTable(
  'chats',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    uuid: uuid('uuid').notNull().unique().default(sql`gen_random_uuid()`),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    lastMessage: text('last_message').notNull().default(''),
    ...timestamps,
  },
  (t) => [index('chats_company_updated_idx').on(t.companyId, t.updatedAt)],
);

/** Who is in a chat, and how many of its messages each has not read. */
export const chatUsers = pgTable(
  'chat_users',
  {
    chatId: integer('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    unreads: integer('unreads').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.userId] }), index('chat_users_user_idx').on(t.userId, t.chatId)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    chatId: integer('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    // The attached file (storage key under the company's media folder), its original name and type; served to members only.
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    mediaMimetype: text('media_mimetype'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_messages_chat_idx').on(t.chatId, t.id)],
);
