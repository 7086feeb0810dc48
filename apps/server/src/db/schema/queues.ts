import { DEFAULT_WEEK_SCHEDULE, type WeekSchedule } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';

/** Queues (spec 3 §3); their chatbot trees are `chatbots` rows (schema/automation.ts). */
export const queues = pgTable(
  'queues',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull(),
    orderQueue: integer('order_queue'),
    greetingMessage: text('greeting_message'),
    outOfHoursMessage: text('out_of_hours_message'),
    closeTicket: boolean('close_ticket').notNull().default(false),
    /** Router rotation: an unanswered pending ticket moves to the next online attendant every `tempoRoteador` minutes. */
    ativarRoteador: boolean('ativar_roteador').notNull().default(false),
    tempoRoteador: integer('tempo_roteador').notNull().default(0),
    /** The queue's integration and file list (queue_integrations, files); plain ids here, the FKs are in migration 0019. */
    integrationId: integer('integration_id'),
    fileListId: integer('file_list_id'),
    // Service hours, used when the company setting scheduleType is 'queue'.
    schedules: jsonb('schedules').$type<WeekSchedule>().notNull().default(DEFAULT_WEEK_SCHEDULE),
    ...timestamps,
  },
  (t) => [
    unique('queues_company_id_name_key').on(t.companyId, t.name),
    // One colour per company, whatever its letter case (ERR_QUEUE_COLOR_ALREADY_EXISTS).
    uniqueIndex('queues_company_id_color_key').on(t.companyId, sql`upper(${t.color})`),
    index('queues_company_id_idx').on(t.companyId),
  ],
);
