import { describe, expect, it } from 'vitest';
import { isWithinHours } from './hours.js';

const week = (startTimeA: string, endTimeA: string) =>
  ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((d) => ({
    weekday: d,
    weekdayEn: d as 'monday',
    startTimeA,
    endTimeA,
    startTimeB: '',
    endTimeB: '',
  }));
const at = (hh: number, mm: number, ss = 0) => new Date(2026, 10, 27, hh, mm, ss);

describe('service hours', () => {
  it('ends a period at its end minute', () => {
    expect(isWithinHours(week('08:00', '12:00'), at(11, 59, 59))).toBe(true);
    expect(isWithinHours(week('08:00', '12:00'), at(12, 0))).toBe(false);
    expect(isWithinHours(week('08:00', '12:00'), at(7, 59))).toBe(false);
  });
  it('keeps a period that ends at 23:59 open through the last minute of the day', () => {
    expect(isWithinHours(week('00:00', '23:59'), at(23, 59, 30))).toBe(true);
    expect(isWithinHours(week('00:00', '23:59'), at(0, 0))).toBe(true);
  });
});
