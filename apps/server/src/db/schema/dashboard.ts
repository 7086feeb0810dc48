import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, numeric, pgTable, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './companies.js';

const count = (name: string) => integer(name).notNull().default(0);

/**
 * The dashboard's daily summary (migration 0034, docs/dashboard.md): per company, opening day, queue and
 * attendant (0: none), what its figures add up, each ticket counted by its state now. The row triggers on
 * `tickets` insert delta rows in the writing transaction; `dashboard_daily_compact()` (a job,
 * modules/dashboard/compaction.ts) folds them into one compacted row per key; readers add up both.
 */
export const dashboardDaily = pgTable(
  'dashboard_daily',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    queueId: integer('queue_id').notNull(),
    userId: integer('user_id').notNull(),
    /** Every ticket, groups included (the charts). */
    total: count('total'),
    /** Tickets that are not groups; the counters below count those, but `groups` and the ratings. */
    tickets: count('tickets'),
    happening: count('happening'),
    pending: count('pending'),
    finished: count('finished'),
    groups: count('groups'),
    active: count('active'),
    withRating: count('with_rating'),
    waitRating: count('wait_rating'),
    promoters: count('promoters'),
    neutral: count('neutral'),
    detractors: count('detractors'),
    rated: count('rated'),
    rateSum: count('rate_sum'),
    /** Accepted tickets and their minutes from opening to accept. */
    waited: count('waited'),
    waitMinutes: numeric('wait_minutes').notNull().default('0'),
    /** Closed, accepted tickets and their minutes from accept to close. */
    served: count('served'),
    serviceMinutes: numeric('service_minutes').notNull().default('0'),
    /** Written by a trigger and not folded yet. */
    delta: boolean('delta').notNull().default(true),
  },
  (t) => [
    uniqueIndex('dashboard_daily_key').on(t.companyId, t.day, t.queueId, t.userId).where(sql`NOT delta`),
    index('dashboard_daily_company_day_idx').on(t.companyId, t.day),
    index('dashboard_daily_deltas_idx').on(t.day).where(sql`delta`),
  ],
);
