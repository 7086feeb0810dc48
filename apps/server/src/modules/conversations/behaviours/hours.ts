import type { ConnectionSchedule } from '@balcao/contracts';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};
/** The last minute a day can name: a period ending at 23:59 runs to midnight (else its last minute would be closed). */
const DAY_END = 23 * 60 + 59;
const endOf = (hhmm: string) => (minutesOf(hhmm) >= DAY_END ? 24 * 60 : minutesOf(hhmm));
const within = (now: number, start: string, end: string) => !!start && !!end && now >= minutesOf(start) && now < endOf(end);

/**
 * Whether `now` (server local time) falls in one of the day's two periods. A
 * connection without any hours configured is always open; a configured week with
 * no entry (or empty periods) for today is closed today.
 */
export function isWithinHours(schedules: ConnectionSchedule[], now = new Date()): boolean {
  if (schedules.length === 0) return true;
  const today = schedules.find((s) => s.weekdayEn === WEEKDAYS[now.getDay()]);
  if (!today) return false;
  const minute = now.getHours() * 60 + now.getMinutes();
  return within(minute, today.startTimeA, today.endTimeA) || within(minute, today.startTimeB, today.endTimeB);
}

/** Collective vacation: from the start date through the whole end day. */
export function isOnVacation(start: Date | null, end: Date | null, now = new Date()): boolean {
  if (!start || !end) return false;
  return now >= start && now.getTime() < end.getTime() + 24 * 3600 * 1000;
}
