import type { Contact, Message, Ticket } from '@balcao/contracts';

/** What a ticket's visibility depends on: enough to address the viewers of a ticket that is gone. */
export interface TicketScope {
  id: number;
  companyId: number;
  userId: number | null;
  queueId: number | null;
  status: string;
}

/**
 * What changed in the conversation core, as commands publish it. Subscribers (realtime/
 * today; webhooks and dashboard counters later) decide who hears what.
 */
export type DomainEvent =
  /** `previous`: owner and queue before the change, so viewers the ticket left hear that it left. */
  | { type: 'ticket.updated'; ticket: Ticket; previous?: { userId: number | null; queueId: number | null; status?: string } }
  | { type: 'ticket.deleted'; ticket: TicketScope }
  /** Its unread counter went to 0 (someone read the conversation). */
  | { type: 'ticket.read'; ticket: TicketScope }
  | { type: 'message.created'; message: Message; ticket: Ticket }
  | { type: 'message.updated'; message: Message; ticket: Ticket }
  | { type: 'contact.saved'; companyId: number; action: 'create' | 'update'; contact: Contact }
  | { type: 'contact.deleted'; companyId: number; contactId: number };

export type DomainEventType = DomainEvent['type'];
