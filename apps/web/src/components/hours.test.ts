import { describe, expect, it } from 'vitest';
import { completeWeek } from './hours';

describe('completeWeek', () => {
  it('gives seven days of 08:00–12:00 and 13:00–18:00 by default, Monday first', () => {
    const week = completeWeek(undefined);
    expect(week.map((d) => d.weekdayEn)).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
    for (const d of week) expect([d.startTimeA, d.endTimeA, d.startTimeB, d.endTimeB]).toEqual(['08:00', '12:00', '13:00', '18:00']);
  });
  it('keeps the saved days and fills the missing ones', () => {
    const week = completeWeek([{ weekday: 'Domingo', weekdayEn: 'sunday', startTimeA: '', endTimeA: '', startTimeB: '', endTimeB: '' }]);
    expect(week[6]).toMatchObject({ weekdayEn: 'sunday', startTimeA: '', endTimeB: '' });
    expect(week[0]).toMatchObject({ weekdayEn: 'monday', startTimeA: '08:00' });
  });
});
