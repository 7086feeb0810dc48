import { describe, expect, it } from 'vitest';
import { brazilianMask } from './phoneMask';

describe('brazilianMask', () => {
  it('writes Brazilian mobiles and landlines in the national mask', () => {
    expect(brazilianMask('5511987654321')).toBe('+55 (11) 98765-4321');
    expect(brazilianMask('551134567890')).toBe('+55 (11) 3456-7890');
  });
  it('leaves masked numbers, groups and other channels alone; other countries get a plus', () => {
    expect(brazilianMask('5511*****4321')).toBe('5511*****4321');
    expect(brazilianMask('120363041234567890')).toBe('120363041234567890');
    expect(brazilianMask('17841400000000001', 'instagram')).toBe('17841400000000001');
    expect(brazilianMask('14155552671')).toBe('+14155552671');
  });
});
