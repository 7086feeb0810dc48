import type { Ticket, UpdateTicketBody } from '@balcao/contracts';

type T = Pick<Ticket, 'isGroup' | 'channel' | 'userId' | 'queueId'>;

/** Spec 2 §4: a group on the WhatsApp channel becomes 'group' where others become 'open'. */
export function workingStatus(ticket: Pick<Ticket, 'isGroup' | 'channel'>): 'open' | 'group' {
  return ticket.isGroup && ticket.channel === 'whatsapp' ? 'group' : 'open';
}

/** The `PUT /tickets/{id}` bodies of the header's actions (spec 2 §4 and §7). */
export const transitionBody = {
  accept: (ticket: T, me: number, queueId: number): UpdateTicketBody => ({ status: workingStatus(ticket), userId: me, queueId }),
  reopen: (ticket: T, me: number, queueId: number): UpdateTicketBody => ({ status: workingStatus(ticket), userId: me, queueId }),
  resolve: (ticket: T, me: number, sendFarewellMessage: boolean): UpdateTicketBody => ({
    status: 'closed',
    userId: ticket.userId ?? me,
    queueId: ticket.queueId,
    sendFarewellMessage,
  }),
  returnToQueue: (): UpdateTicketBody => ({ status: 'pending', userId: null }),
  transfer: (ticket: T, queueId: number, userId: number | null, note: string): UpdateTicketBody => ({
    queueId,
    userId,
    status: userId === null ? 'pending' : workingStatus(ticket),
    msgTransfer: note.trim() ? note.trim() : null,
    isTransfered: true,
  }),
  ignore: (): UpdateTicketBody => ({ status: 'closed', sendFarewellMessage: false, amountUsedBotQueues: 0 }),
  integration: (on: boolean): UpdateTicketBody => ({ useIntegration: on }),
};

export interface Viewer {
  id: number;
  profile: 'admin' | 'user';
  userClosePendingTicket: 'enabled' | 'disabled';
}

/** Spec 2 §4 and §6: ignore is for pending (or lgpd) tickets, by admins or users with userClosePendingTicket. */
export function canIgnore(ticket: Pick<Ticket, 'status'>, viewer: Viewer): boolean {
  if (ticket.status !== 'pending' && ticket.status !== 'lgpd') return false;
  return viewer.profile === 'admin' || viewer.userClosePendingTicket === 'enabled';
}

/**
 * Whether "resolve with farewell" sends anything (tickets/service closeTicket): never for a
 * group or a ticket without connection; else the connection's farewell or rating message,
 * or the resolving user's own farewellMessage.
 */
export function farewellWouldSend(ticket: Pick<Ticket, 'isGroup' | 'whatsapp'>, me: { farewellMessage: string | null }): boolean {
  if (ticket.isGroup || !ticket.whatsapp) return false;
  return ticket.whatsapp.hasFarewell || !!me.farewellMessage?.trim();
}

export type HeaderAction = 'accept' | 'ignore' | 'returnToQueue' | 'resolve' | 'transfer' | 'reopen';

/** The header's main buttons per status (spec 2 §4). */
export function headerActions(ticket: Pick<Ticket, 'status'>, viewer: Viewer): HeaderAction[] {
  switch (ticket.status) {
    case 'pending':
    case 'lgpd':
      return canIgnore(ticket, viewer) ? ['accept', 'ignore'] : ['accept'];
    case 'open':
    case 'group':
      return ['returnToQueue', 'resolve', 'transfer'];
    case 'closed':
      return ['reopen'];
    default:
      return [];
  }
}

/** When the reply to an action is another ticket held by someone else, the info dialog names them. */
export function otherOwner(current: Pick<Ticket, 'id'>, reply: Pick<Ticket, 'id' | 'userId'> | null | undefined, me: number): boolean {
  return !!reply && reply.id !== current.id && reply.userId !== null && reply.userId !== me;
}
