import { CUSTOM_PLAN } from '@balcao/contracts';

/** One click of a plan stepper: never below 3 (at 3 the decrement does nothing) nor above the maximum. */
export function stepSeats(value: number, delta: 1 | -1): number {
  return Math.min(CUSTOM_PLAN.maximum, Math.max(CUSTOM_PLAN.minimum, value + delta));
}

/** Where the editor starts: the company's plan, raised to the minimum. */
export const initialSeats = (planValue: number | undefined) => Math.max(CUSTOM_PLAN.minimum, planValue ?? CUSTOM_PLAN.minimum);
