import { EXPIRY_WARNING_DAYS, PLATFORM_COMPANY_ID } from '@balcao/contracts';

const DAY_MS = 86_400_000;

export type SubscriptionState =
  | { kind: 'active' }
  | { kind: 'expiring'; daysLeft: number }
  | { kind: 'expired' };

function parseDue(dueDate: string): Date | null {
  // A date-only due date lasts until the end of that day.
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(dueDate) ? `${dueDate}T23:59:59` : dueDate;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Spec 1 §4 "Subscription at login". Company 1 never expires; no due date means no expiry. */
export function subscriptionState(companyId: number, dueDate: string | null, now: Date = new Date()): SubscriptionState {
  if (companyId === PLATFORM_COMPANY_ID || !dueDate) return { kind: 'active' };
  const due = parseDue(dueDate);
  if (!due) return { kind: 'active' };
  if (due.getTime() <= now.getTime()) return { kind: 'expired' };
  const daysLeft = Math.round((due.getTime() - now.getTime()) / DAY_MS);
  return daysLeft < EXPIRY_WARNING_DAYS ? { kind: 'expiring', daysLeft } : { kind: 'active' };
}
