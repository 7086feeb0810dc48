import { index, integer, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { companies } from './companies.js';

/** Minimal queues table; the queues issue extends it. */
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
    ...timestamps,
  },
  (t) => [unique('queues_company_id_name_key').on(t.companyId, t.name), index('queues_company_id_idx').on(t.companyId)],
);
