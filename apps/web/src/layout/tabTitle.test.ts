import { describe, expect, it } from 'vitest';
import { formatTabTitle } from './tabTitle';

describe('formatTabTitle', () => {
  it('shows only the app name without unread tickets', () => {
    expect(formatTabTitle(0, 'Balcão')).toBe('Balcão');
    expect(formatTabTitle(-3, 'Balcão')).toBe('Balcão');
  });
  it('uses circled digits from 1 to 20', () => {
    expect(formatTabTitle(1, 'Balcão')).toBe('① Balcão');
    expect(formatTabTitle(9, 'Balcão')).toBe('⑨ Balcão');
    expect(formatTabTitle(20, 'Balcão')).toBe('⑳ Balcão');
  });
  it('uses parentheses above 20', () => {
    expect(formatTabTitle(21, 'Balcão')).toBe('(21) Balcão');
    expect(formatTabTitle(150, 'O Plano')).toBe('(150) O Plano');
  });
});
