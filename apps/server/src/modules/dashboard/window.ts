import { sql, type SQL } from 'drizzle-orm';

/**
 * A time window of whole days, in the database time zone (as the inbox's `date` filter): the days
 * [fromDay, toDay) as dates, and the same as instants [from, to).
 */
export interface DayWindow {
  fromDay: SQL;
  toDay: SQL;
  from: SQL;
  to: SQL;
}

const days = (fromDay: SQL, toDay: SQL): DayWindow => ({ fromDay, toDay, from: sql`(${fromDay})::timestamptz`, to: sql`(${toDay})::timestamptz` });

/** yyyy-MM-dd .. yyyy-MM-dd, both days included. */
export const dayWindow = (fromDay: string, toDay: string): DayWindow => days(sql`${fromDay}::date`, sql`${toDay}::date + 1`);

/** The last `n` days, today included. */
export const lastDays = (n: number): DayWindow => days(sql`current_date - ${n - 1}::int`, sql`current_date + 1`);

/** `column` (an instant) inside the window. */
export const within = (column: SQL, w: DayWindow): SQL => sql`${column} >= ${w.from} AND ${column} < ${w.to}`;

/** `column` (a date) among the window's days. */
export const onDays = (column: SQL, w: DayWindow): SQL => sql`${column} >= ${w.fromDay} AND ${column} < ${w.toDay}`;
