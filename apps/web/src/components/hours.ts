import { DEFAULT_WEEK_SCHEDULE, type WeekSchedule } from '@balcao/contracts';

/** Seven days in order, each from `value` when present, else the default 08:00–12:00 / 13:00–18:00. */
export function completeWeek(value: WeekSchedule | null | undefined): WeekSchedule {
  return DEFAULT_WEEK_SCHEDULE.map((day) => {
    const saved = value?.find((d) => d.weekdayEn === day.weekdayEn);
    return saved ? { ...day, ...saved, weekday: day.weekday } : { ...day };
  });
}
