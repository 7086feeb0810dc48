import { describe, expect, it } from 'vitest';
import { fieldErrorText } from './form';

describe('fieldErrorText', () => {
  it("shows the contracts' messages as they are", () => {
    for (const message of ['Too Short!', 'Too Long!', 'Required', 'Invalid email']) {
      expect(fieldErrorText({ type: 'custom', message })).toBe(message);
    }
  });
  it("maps zod's generic issues onto the same words", () => {
    expect(fieldErrorText({ type: 'invalid_type', message: 'Invalid input: expected number, received string' })).toBe('Required');
    expect(fieldErrorText({ type: 'too_small', message: 'Too small: expected number to be >=0' })).toBe('Too Short!');
    expect(fieldErrorText({ type: 'too_big', message: 'Too big' })).toBe('Too Long!');
    expect(fieldErrorText(undefined)).toBeUndefined();
  });
});
