import { z } from 'zod';
import { DEFAULT_HOURS } from './constants.js';

/** The seven days of the hours editor (company and queue opening hours), Monday first. */
export const WEEKDAYS = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday' },
  { weekday: 'Sábado', weekdayEn: 'saturday' },
  { weekday: 'Domingo', weekdayEn: 'sunday' },
] as const;
export type WeekdayEn = (typeof WEEKDAYS)[number]['weekdayEn'];

/** HH:MM, or '' for a period left closed. */
const periodTime = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d)?$/, 'expected HH:MM');

export const daySchedule = z.object({
  weekday: z.string().max(30),
  weekdayEn: z.enum(WEEKDAYS.map((d) => d.weekdayEn) as [WeekdayEn, ...WeekdayEn[]]),
  startTimeA: periodTime,
  endTimeA: periodTime,
  startTimeB: periodTime,
  endTimeB: periodTime,
});
export type DaySchedule = z.infer<typeof daySchedule>;

/** Up to one entry per weekday. */
export const weekSchedule = z
  .array(daySchedule)
  .max(7)
  .refine((days) => new Set(days.map((d) => d.weekdayEn)).size === days.length, 'each weekday at most once');
export type WeekSchedule = z.infer<typeof weekSchedule>;

/** 08:00–12:00 and 13:00–18:00 on all seven days (spec 1 §9, 3 §3). */
export const DEFAULT_WEEK_SCHEDULE: WeekSchedule = WEEKDAYS.map((d) => ({
  ...d,
  startTimeA: DEFAULT_HOURS.startA,
  endTimeA: DEFAULT_HOURS.endA,
  startTimeB: DEFAULT_HOURS.startB,
  endTimeB: DEFAULT_HOURS.endB,
}));
