import { describe, expect, it } from 'vitest';
import { subscriptionState } from './subscription';

const now = new Date('2025-06-10T12:00:00');

describe('subscriptionState', () => {
  it('never expires company 1', () => {
    expect(subscriptionState(1, '2000-01-01', now)).toEqual({ kind: 'active' });
  });
  it('is expired when the due date is past', () => {
    expect(subscriptionState(2, '2025-06-09', now)).toEqual({ kind: 'expired' });
    expect(subscriptionState(2, '2025-06-10T11:00:00', now)).toEqual({ kind: 'expired' });
  });
  it('warns with the days left when fewer than 5 remain', () => {
    expect(subscriptionState(2, '2025-06-11T12:00:00', now)).toEqual({ kind: 'expiring', daysLeft: 1 });
    expect(subscriptionState(2, '2025-06-13T12:00:00', now)).toEqual({ kind: 'expiring', daysLeft: 3 });
  });
  it('is active further out or without a due date', () => {
    expect(subscriptionState(2, '2025-07-30', now)).toEqual({ kind: 'active' });
    expect(subscriptionState(2, null, now)).toEqual({ kind: 'active' });
  });
});
