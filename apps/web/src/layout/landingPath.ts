import type { SessionUser } from '@balcao/contracts';
import { subscriptionState } from '../api/subscription';

/**
 * Where a user lands after login (or on an address that leads nowhere): the first screen they
 * may use. The inbox is every profile's work screen; the dashboard stays at / for a deliberate
 * visit (its 403 page included) — see docs/web-shell.md "Landing".
 */
export function landingPath(user: Pick<SessionUser, 'company'>, now: Date = new Date()): string {
  if (subscriptionState(user.company.id, user.company.dueDate, now).kind === 'expired') return '/financeiro-aberto';
  return '/tickets';
}
