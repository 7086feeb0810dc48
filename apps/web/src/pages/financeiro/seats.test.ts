import { customPlanPrice } from '@balcao/contracts';
import { describe, expect, it } from 'vitest';
import { initialSeats, stepSeats } from './seats';

describe('custom plan steppers (spec 3 §5, §9)', () => {
  it('stops at 3: a decrement at 3 does nothing, and the price stays 49', () => {
    expect(stepSeats(3, -1)).toBe(3);
    expect(stepSeats(4, -1)).toBe(3);
    expect(customPlanPrice(stepSeats(3, -1), stepSeats(3, -1))).toBe(49);
  });

  it('adds 11 a user and 20 a connection, and takes them back on decrement', () => {
    expect(customPlanPrice(stepSeats(3, 1), 3)).toBe(60);
    expect(customPlanPrice(3, stepSeats(3, 1))).toBe(69);
    expect(customPlanPrice(stepSeats(4, -1), stepSeats(4, -1))).toBe(49);
  });

  it('starts from the company plan, never below 3', () => {
    expect(initialSeats(1)).toBe(3);
    expect(initialSeats(8)).toBe(8);
    expect(initialSeats(undefined)).toBe(3);
  });
});
