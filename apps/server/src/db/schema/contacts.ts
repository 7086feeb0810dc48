import { CHANNELS } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';

/**
 * A customer (or a group) on one channel. `number` is the phone number for WhatsApp
 * (digits; the LID digits when WhatsApp hides the number), the group id for groups,
 * and the page-scoped id (PSID / IGSID) for Facebook and Instagram.
 */
export const contacts = pgTable(
  'contacts',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: CHANNELS }).notNull().default('whatsapp'),
    name: text('name').notNull(),
    number: text('number').notNull(),
    /** The address a send goes to (WhatsApp JID, or the PSID/IGSID again for Meta). */
    remoteJid: text('remote_jid').notNull().default(''),
    email: text('email').notNull().default(''),
    /** Our stored copy's URL once downloaded (the channel's URL until then); see modules/contacts/picture.ts. */
    profilePicUrl: text('profile_pic_url'),
    /** The channel's URL our stored copy was downloaded from, and when. */
    pictureSourceUrl: text('picture_source_url'),
    pictureFetchedAt: timestamp('picture_fetched_at', { withTimezone: true }),
    isGroup: boolean('is_group').notNull().default(false),
    active: boolean('active').notNull().default(true),
    acceptAudioMessage: boolean('accept_audio_message').notNull().default(true),
    disableBot: boolean('disable_bot').notNull().default(false),
    lgpdAcceptedAt: timestamp('lgpd_accepted_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    // The concurrency guarantee for a new contact's first messages arriving together.
    unique('contacts_company_channel_number_key').on(t.companyId, t.channel, t.number),
    index('contacts_company_id_idx').on(t.companyId, t.name),
    // The dashboard's new contacts of a period (groups are not leads): an index-only count (migration 0034).
    index('contacts_company_created_idx').on(t.companyId, t.createdAt).where(sql`NOT is_group`),
    // Substring search on name and number (ILIKE '%x%') for the inbox and contact pickers; needs pg_trgm.
    index('contacts_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('contacts_number_trgm_idx').using('gin', t.number.op('gin_trgm_ops')),
    index('contacts_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    // GET /contacts terms with 4+ digits: the 4-digit grams of name, number and e-mail (migration 0037).
    index('contacts_digit_grams_idx').using('gin', sql`contact_digit_grams(${t.name}, ${t.number}, ${t.email})`),
  ],
);

/** Contact extra information (spec 2 §3 `extraInfo`: name/value pairs). */
export const contactCustomFields = pgTable(
  'contact_custom_fields',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    value: text('value').notNull().default(''),
    ...timestamps,
  },
  (t) => [index('contact_custom_fields_company_id_idx').on(t.companyId, t.contactId)],
);
