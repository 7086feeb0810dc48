import { index, integer, pgTable, primaryKey, text, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';
import { contacts } from './contacts.js';
import { tickets } from './tickets.js';

/** Tags (spec 2 §3): `kanban = 1` makes the tag a kanban lane. */
export const tags = pgTable(
  'tags',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull(),
    kanban: integer('kanban').notNull().default(0),
    timeLane: integer('time_lane').notNull().default(0),
    nextLaneId: integer('next_lane_id'),
    rollbackLaneId: integer('rollback_lane_id'),
    greetingMessageLane: text('greeting_message_lane').notNull().default(''),
    ...timestamps,
  },
  (t) => [unique('tags_company_id_name_kanban_key').on(t.companyId, t.name, t.kanban)],
);

/** A contact's tags (the contact drawer, `/tags/sync`; `requiredTag` reads them). */
export const contactTags = pgTable(
  'contact_tags',
  {
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.contactId, t.tagId] }), index('contact_tags_tag_id_idx').on(t.tagId)],
);

/** A ticket's tags (the inbox row chips, the tag filter, kanban lanes). */
export const ticketTags = pgTable(
  'ticket_tags',
  {
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    // Copies of the ticket's status and owner, written by triggers only (migration 0044): a tag filter reads the
    // tag's rows of one tab or owner (`ticket_tags_list_idx`) and checks the ticket itself for the rest.
    status: text('status'),
    userId: integer('user_id'),
    ...timestamps,
  },
  // The tag filter walks tag → tickets.
  (t) => [
    primaryKey({ columns: [t.ticketId, t.tagId] }),
    index('ticket_tags_tag_id_idx').on(t.tagId, t.ticketId),
    index('ticket_tags_list_idx').on(t.tagId, t.status, t.userId, t.ticketId),
  ],
);
