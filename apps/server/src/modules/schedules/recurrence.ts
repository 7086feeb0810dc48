import { SCHEDULE_INTERVALS, type ScheduleInterval } from '@balcao/contracts';
import Holidays from 'date-holidays';

/**
 * Calendar rules of the schedule engine. Weekends and holidays are those of Brazil
 * (the product's market) in São Paulo's time zone, the one the national calendar
 * and most companies use; the holidays come from a maintained library, national ones only.
 */
export const SCHEDULE_TIME_ZONE = 'America/Sao_Paulo';
const holidays = new Holidays('BR', { types: ['public'], timezone: SCHEDULE_TIME_ZONE });
const weekdayOf = new Intl.DateTimeFormat('en-US', { timeZone: SCHEDULE_TIME_ZONE, weekday: 'short' });

const DAY_MS = 86_400_000;
const SAO_PAULO_OFFSET_MS = -3 * 3600_000;

/** A Saturday, a Sunday or a national holiday (in São Paulo), at that instant. */
export function isNonBusinessDay(at: Date): boolean {
  const weekday = weekdayOf.format(at);
  return weekday === 'Sat' || weekday === 'Sun' || holidays.isHoliday(at) !== false;
}

/**
 * `tipoDias` 5 / 6: a send that falls on a non-business day moves, at the same time of
 * day, to the business day before (5) or after (6); 4 (or anything else) keeps it.
 */
export function moveToBusinessDay(at: Date, tipoDias: number): Date {
  if (tipoDias !== 5 && tipoDias !== 6) return at;
  const step = tipoDias === 5 ? -DAY_MS : DAY_MS;
  let moved = at;
  // Two weeks is far more than any run of weekends and holidays.
  for (let i = 0; i < 14 && isNonBusinessDay(moved); i++) moved = new Date(moved.getTime() + step);
  return moved;
}

/** `at` plus `count` units of `intervalo`; months keep the day of the month, clamped to its last day (31 Jan + 1 month = 28/29 Feb). */
export function addInterval(at: Date, intervalo: number, count: number): Date {
  const unit = SCHEDULE_INTERVALS[intervalo as ScheduleInterval] ?? 'days';
  switch (unit) {
    case 'minutes':
      return new Date(at.getTime() + count * 60_000);
    case 'weeks':
      return new Date(at.getTime() + count * 7 * DAY_MS);
    case 'days':
      return new Date(at.getTime() + count * DAY_MS);
    case 'months': {
      // On São Paulo's wall clock (UTC−3 all year since 2019), so 22:00 on the 31st stays the 31st.
      const next = new Date(at.getTime() + SAO_PAULO_OFFSET_MS);
      const day = next.getUTCDate();
      next.setUTCDate(1);
      next.setUTCMonth(next.getUTCMonth() + count);
      const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
      next.setUTCDate(Math.min(day, lastDay));
      return new Date(next.getTime() - SAO_PAULO_OFFSET_MS);
    }
  }
}

export interface Recurrence {
  plannedAt: Date;
  /** When the send just made went out as scheduled (its moved time). */
  sendAt: Date;
  intervalo: number;
  valorIntervalo: number;
  enviarQuantasVezes: number;
  tipoDias: number;
  /** Sends made, counting the one just made. */
  contadorEnvio: number;
}

const FIXED_STEP_MS: Record<string, number> = { minutes: 60_000, days: DAY_MS, weeks: 7 * DAY_MS };

/**
 * The next occurrence after a send (planned and moved), or null when the schedule has
 * sent all it should. It is always in the future: occurrences missed while the server
 * was down are skipped, not sent in a burst; and one whose move lands on or before the
 * send just made (a daily schedule around a holiday) is skipped too, so a recurrence
 * never sends twice on one moved day.
 */
export function nextOccurrence(r: Recurrence, now = new Date()): { plannedAt: Date; sendAt: Date } | null {
  if (r.valorIntervalo <= 0 || r.contadorEnvio >= r.enviarQuantasVezes) return null;
  const after = Math.max(r.sendAt.getTime(), now.getTime());
  const stepMs = (FIXED_STEP_MS[SCHEDULE_INTERVALS[r.intervalo as ScheduleInterval]] ?? 0) * r.valorIntervalo;
  // Fixed-length steps jump straight to the neighbourhood of `after`; months walk (a few a year).
  let steps = stepMs > 0 ? Math.max(1, Math.floor((after - r.plannedAt.getTime()) / stepMs)) : 1;
  for (let i = 0; i < 400; i++, steps++) {
    const plannedAt = addInterval(r.plannedAt, r.intervalo, r.valorIntervalo * steps);
    const sendAt = moveToBusinessDay(plannedAt, r.tipoDias);
    if (sendAt.getTime() > after) return { plannedAt, sendAt };
  }
  return null;
}
