import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { companies } from './companies.js';
import { contacts } from './contacts.js';

/**
 * The word index of contact search (migration 0033, docs/contacts.md "Search at a million contacts"):
 * written only by the `contacts_words_*` triggers, read by `modules/contacts/word-search.ts`.
 * Each contact's lowercased words with its name, so one word's contacts walk in name order.
 */
export const contactWords = pgTable(
  'contact_words',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    word: text('word').notNull(),
    name: text('name').notNull(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ name: 'contact_words_pkey', columns: [t.companyId, t.word, t.name, t.contactId] }), index('contact_words_contact_idx').on(t.contactId)],
);

/** The company's distinct words (never shrinks), under a trigram index: a term's fragment finds its few words. */
export const contactWordList = pgTable(
  'contact_word_list',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    word: text('word').notNull(),
  },
  (t) => [primaryKey({ name: 'contact_word_list_pkey', columns: [t.companyId, t.word] }), index('contact_word_list_trgm_idx').using('gin', t.word.op('gin_trgm_ops'))],
);
