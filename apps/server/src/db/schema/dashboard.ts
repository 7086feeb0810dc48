import { date, integer, numeric, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { companies } from './companies.js';

const count = (name: string) => integer(name).notNull().default(0);

/**
 * The dashboard's daily summary (migration 0034, docs/dashboard.md): per company, opening day, queue and
 * attendant (0: none), what its figures add up, each ticket counted by its state now. Written only by the
 * statement triggers on `tickets` (in the writing transaction); read by modules/dashboard.
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
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.queueId, t.userId] })],
);
