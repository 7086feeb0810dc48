import { type Contact, type Message, type Ticket } from '@balcao/contracts';
import { messageForViewer } from '../modules/messages/presenter.js';
import { ticketForViewer } from '../modules/tickets/presenter.js';
import { ROOMS, ticketAudience } from './rooms.js';
import type { Realtime } from './server.js';

/**
 * Ticket, message and contact events: each goes to the rooms of exactly the viewers who
 * may see it, built once per audience (admins, and everyone else masked when the company
 * hides numbers), never once per socket.
 */

type TicketScope = { id: number; companyId: number; userId: number | null; queueId: number | null; status: string };

/**
 * `previous`: the owner and queue before a change. Viewers the ticket just left get
 * `delete` (their lists drop it) instead of a ticket they may no longer open.
 */
export async function emitTicketChanged(
  rt: Realtime,
  ticket: Ticket,
  previous?: { userId: number | null; queueId: number | null; status?: string },
): Promise<void> {
  const audience = ticketAudience(ticket);
  await rt.emitMasked(ticket.companyId, audience, 'ticket', (mask) => ({ action: 'update', ticket: ticketForViewer(ticket, mask) }));
  rt.pruneTicketRoom(ticket.companyId, ticket);
  if (!previous) return;
  const before = ticketAudience({ ...previous, status: previous.status ?? ticket.status });
  rt.emitToRoomsExcept(ticket.companyId, before, audience, 'ticket', { action: 'delete', ticketId: ticket.id });
}

export function emitTicketDeleted(rt: Realtime, ticket: TicketScope): void {
  rt.emitToRooms(ticket.companyId, ticketAudience(ticket), 'ticket', { action: 'delete', ticketId: ticket.id });
}

export function emitTicketRead(rt: Realtime, ticket: TicketScope): void {
  rt.emitToRooms(ticket.companyId, ticketAudience(ticket), 'ticket', { action: 'updateUnread', ticketId: ticket.id });
}

export async function emitMessageCreated(rt: Realtime, message: Message, ticket: Ticket): Promise<void> {
  await rt.emitMasked(ticket.companyId, ticketAudience(ticket), 'appMessage', (mask) => {
    const contact = mask(ticket.contact);
    return { action: 'create', message: messageForViewer(message, contact), ticket: ticketForViewer(ticket, mask), contact };
  });
}

export async function emitMessageChanged(rt: Realtime, message: Message, ticket: Ticket): Promise<void> {
  await rt.emitMasked(ticket.companyId, ticketAudience(ticket), 'appMessage', (mask) => ({
    action: 'update',
    message: messageForViewer(message, mask(ticket.contact)),
  }));
}

export async function emitContactChanged(rt: Realtime, companyId: number, action: 'create' | 'update', contact: Contact): Promise<void> {
  await rt.emitMasked(companyId, [ROOMS.everyone], 'contact', (mask) => ({ action, contact: mask(contact) }));
}
