import type { DomainEvent } from '../events/types.js';
import { messageForViewer } from '../modules/messages/presenter.js';
import { ticketForViewer } from '../modules/tickets/presenter.js';
import { ROOMS, ticketAudience } from './rooms.js';
import type { Realtime } from './server.js';

/**
 * The bus's conversation events as socket emits: each goes to the rooms of exactly the
 * viewers who may see it, built once per audience (admins, and everyone else masked when
 * the company hides numbers), never once per socket.
 */
export async function emitDomainEvent(rt: Realtime, event: DomainEvent): Promise<void> {
  switch (event.type) {
    case 'ticket.updated': {
      const { ticket, previous } = event;
      const audience = ticketAudience(ticket);
      await rt.emitMasked(ticket.companyId, audience, 'ticket', (mask) => ({ action: 'update', ticket: ticketForViewer(ticket, mask) }));
      rt.pruneTicketRoom(ticket.companyId, ticket);
      // Viewers the ticket just left get `delete` (their lists drop it), not a ticket they may no longer open.
      if (previous) {
        const before = ticketAudience({ ...previous, status: previous.status ?? ticket.status });
        rt.emitToRoomsExcept(ticket.companyId, before, audience, 'ticket', { action: 'delete', ticketId: ticket.id });
      }
      return;
    }
    case 'ticket.deleted':
      return rt.emitToRooms(event.ticket.companyId, ticketAudience(event.ticket), 'ticket', { action: 'delete', ticketId: event.ticket.id });
    case 'ticket.read':
      return rt.emitToRooms(event.ticket.companyId, ticketAudience(event.ticket), 'ticket', { action: 'updateUnread', ticketId: event.ticket.id });
    case 'message.created': {
      const { message, ticket } = event;
      return rt.emitMasked(ticket.companyId, ticketAudience(ticket), 'appMessage', (mask) => {
        const contact = mask(ticket.contact);
        return { action: 'create', message: messageForViewer(message, contact), ticket: ticketForViewer(ticket, mask), contact };
      });
    }
    case 'message.updated': {
      const { message, ticket } = event;
      return rt.emitMasked(ticket.companyId, ticketAudience(ticket), 'appMessage', (mask) => ({
        action: 'update',
        message: messageForViewer(message, mask(ticket.contact)),
      }));
    }
    case 'contact.saved':
      return rt.emitMasked(event.companyId, [ROOMS.everyone], 'contact', (mask) => ({ action: event.action, contact: mask(event.contact) }));
    case 'contact.deleted':
      return rt.emitToRooms(event.companyId, [ROOMS.everyone], 'contact', { action: 'delete', contactId: event.contactId });
  }
}
