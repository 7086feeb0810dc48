import { DEFAULT_WEEK_SCHEDULE, type WeekSchedule } from '@balcao/contracts';
import { boolean, date, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { plans } from './plans.js';

export const companies = pgTable(
  'companies',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull().unique(),
    email: text('email'),
    phone: text('phone'),
    document: text('document'),
    planId: integer('plan_id').references(() => plans.id, { onDelete: 'set null' }),
    status: boolean('status').notNull().default(true),
    dueDate: date('due_date', { mode: 'string' }),
    recurrence: text('recurrence').notNull().default('MENSAL'),
    paymentMethod: text('payment_method'),
    street: text('street'),
    city: text('city'),
    state: text('state'),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    // Opening hours, used when the company setting scheduleType is 'company'.
    schedules: jsonb('schedules').$type<WeekSchedule>().notNull().default(DEFAULT_WEEK_SCHEDULE),
    ...timestamps,
  },
  (t) => [index('companies_plan_id_idx').on(t.planId)],
);
