import { describe, expect, it } from 'vitest';
import { cut, momentTime } from './MomentsPage';

describe('attendance panel texts (spec 2 §2)', () => {
  it('cuts contact names over 30 characters to 25 plus an ellipsis, last messages to 27', () => {
    const name31 = 'Maria da Conceição Albuquerque';
    expect(name31).toHaveLength(30);
    expect(cut(name31, 30, 25)).toBe(name31);
    expect(cut(`${name31}!`, 30, 25)).toBe('Maria da Conceição Albuqu...');
    expect(cut('x'.repeat(31), 30, 27)).toBe(`${'x'.repeat(27)}...`);
  });

  it('shows HH:mm for today and dd/MM/yyyy otherwise', () => {
    const now = new Date(2026, 10, 23, 18, 0);
    expect(momentTime(new Date(2026, 10, 23, 9, 5).toISOString(), now)).toBe('09:05');
    expect(momentTime(new Date(2026, 10, 22, 23, 59).toISOString(), now)).toBe('22/11/2026');
  });
});
