import type { Ticket } from '@balcao/contracts';
import { visibleInInbox, type ListViewer } from './listModel';

export interface NotifyContext {
  viewer: ListViewer;
  /** The company setting showNotificationPending: messages on pending tickets notify only when enabled. */
  notifyPending: boolean;
  /** The ticket open on screen (its uuid), if any. */
  openTicketUuid: string | null;
  /** The browser tab is visible and focused. */
  focused: boolean;
}

/**
 * Does a new message call for the sound and a desktop notification? Only a
 * customer's message (not ours), on a live ticket this user works on (theirs
 * or unassigned in their queues), and not on the ticket they are looking at.
 */
export function shouldNotify(
  ticket: Pick<Ticket, 'uuid' | 'status' | 'userId' | 'queueId'>,
  message: { fromMe: boolean },
  ctx: NotifyContext,
): boolean {
  if (message.fromMe) return false;
  if (ticket.status !== 'open' && ticket.status !== 'pending' && ticket.status !== 'group') return false;
  if (ticket.status === 'pending' && !ctx.notifyPending) return false;
  // As the status tabs show it with the user's own queues selected (not the list's current selection).
  if (!visibleInInbox(ticket, { view: ticket.status, queueIds: ctx.viewer.queueIds, showAll: false }, ctx.viewer)) return false;
  return !(ctx.focused && ctx.openTicketUuid === ticket.uuid);
}
