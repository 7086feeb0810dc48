import { DEFAULT_WEEK_SCHEDULE, type WeekSchedule } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';

/** Queues (spec 3 §3); the chatbot tree, router rotation, integration and file list arrive with a later issue. */
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
