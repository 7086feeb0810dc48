import { QUEUE_INTEGRATION_TYPES, CHATBOT_OPTION_TYPES } from '@balcao/contracts';
import { boolean, index, integer, pgTable, real, text, unique, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';
import { queues } from './queues.js';
import { users } from './users.js';

/**
 * The automation data of spec 3 §3 (issue 16): integrations, file lists, AI prompts and
 * the queues' chatbot option trees. Secrets (`json_content`, `api_key`) are stored
 * sealed (`secrets.ts` sealSecret) and never answered in full.
 */
export const queueIntegrations = pgTable(
  'queue_integrations',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type', { enum: QUEUE_INTEGRATION_TYPES }).notNull(),
    name: text('name').notNull(),
    projectName: text('project_name'),
    jsonContent: text('json_content'),
    language: text('language'),
    urlN8N: text('url_n8n'),
    typebotSlug: text('typebot_slug'),
    typebotExpires: integer('typebot_expires').notNull().default(1),
    typebotDelayMessage: integer('typebot_delay_message').notNull().default(1000),
    typebotKeywordFinish: text('typebot_keyword_finish'),
    typebotKeywordRestart: text('typebot_keyword_restart'),
    typebotUnknownMessage: text('typebot_unknown_message'),
    typebotRestartMessage: text('typebot_restart_message'),
    ...timestamps,
  },
  (t) => [unique('queue_integrations_company_id_name_key').on(t.companyId, t.name), index('queue_integrations_company_id_idx').on(t.companyId, t.id)],
);

/** A file list (spec "File list"): a message and named files a bot option or an attendant sends. */
export const fileLists = pgTable(
  'files',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    message: text('message').notNull().default(''),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [unique('files_company_id_name_key').on(t.companyId, t.name), index('files_company_id_idx').on(t.companyId, t.id)],
);

export const fileListOptions = pgTable(
  'files_options',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    fileId: integer('file_id')
      .notNull()
      .references(() => fileLists.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Stored media path (storage/media.ts); null until the option's file is uploaded. */
    path: text('path'),
    mediaType: text('media_type'),
    ...timestamps,
  },
  (t) => [index('files_options_file_id_idx').on(t.fileId)],
);

export const prompts = pgTable(
  'prompts',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prompt: text('prompt').notNull(),
    apiKey: text('api_key').notNull(),
    voice: text('voice').notNull().default('texto'),
    voiceKey: text('voice_key'),
    voiceRegion: text('voice_region'),
    maxTokens: integer('max_tokens').notNull().default(100),
    temperature: real('temperature').notNull().default(1),
    maxMessages: integer('max_messages').notNull().default(10),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [unique('prompts_company_id_name_key').on(t.companyId, t.name), index('prompts_company_queue_idx').on(t.companyId, t.queueId)],
);

/** A node of a queue's chatbot tree: the queue's top options have no parent; options nest without a depth limit. */
export const chatbots = pgTable(
  'chatbots',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => chatbots.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    greetingMessage: text('greeting_message').notNull().default(''),
    queueType: text('queue_type', { enum: CHATBOT_OPTION_TYPES }).notNull().default('text'),
    closeTicket: boolean('close_ticket').notNull().default(false),
    optQueueId: integer('opt_queue_id').references(() => queues.id, { onDelete: 'set null' }),
    optUserId: integer('opt_user_id').references(() => users.id, { onDelete: 'set null' }),
    optIntegrationId: integer('opt_integration_id').references(() => queueIntegrations.id, { onDelete: 'set null' }),
    optFileId: integer('opt_file_id').references(() => fileLists.id, { onDelete: 'set null' }),
    /** Position among its siblings: the number the customer answers is this order + 1. */
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('chatbots_queue_parent_idx').on(t.queueId, t.parentId, t.position), index('chatbots_company_id_idx').on(t.companyId)],
);
