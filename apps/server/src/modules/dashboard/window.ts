import { sql, type SQL } from 'drizzle-orm';

/** A half-open time window [from, to) of whole days, in the database time zone (as the inbox's `date` filter). */
export interface DayWindow {
  from: SQL;
  to: SQL;
}

/** yyyy-MM-dd .. yyyy-MM-dd, both days included. */
export const dayWindow = (fromDay: string, toDay: string): DayWindow => ({
  from: sql`${fromDay}::date::timestamptz`,
  to: sql`(${toDay}::date + 1)::timestamptz`,
});

/** The last `days` days, today included. */
export const lastDays = (days: number): DayWindow => ({
  from: sql`(current_date - ${days - 1}::int)::timestamptz`,
  to: sql`(current_date + 1)::timestamptz`,
});

/** `column` inside the window. */
export const within = (column: SQL, w: DayWindow): SQL => sql`${column} >= ${w.from} AND ${column} < ${w.to}`;
