import type { Ticket } from '@balcao/contracts';
import type { AppContext } from '../http/context.js';
import { loadMessage } from '../modules/messages/queries.js';
import { loadTicket } from '../modules/tickets/queries.js';
import { ticketRooms } from '../modules/tickets/rooms.js';

/** Socket emits of the message pipeline; called after the writes they announce have committed. */

export async function emitTicketUpdate(ctx: AppContext, ticketId: number): Promise<Ticket | undefined> {
  const ticket = await loadTicket(ctx.db, ticketId);
  if (!ticket) return undefined;
  ctx.realtime.emitToRooms(ticket.companyId, ticketRooms(ticket), 'ticket', { action: 'update', ticket });
  return ticket;
}

export async function emitMessageCreate(ctx: AppContext, messageId: number, ticket: Ticket): Promise<void> {
  const message = await loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, messageId);
  if (!message) return;
  ctx.realtime.emitToRooms(ticket.companyId, ticketRooms(ticket), 'appMessage', { action: 'create', message, ticket, contact: ticket.contact });
}

export async function emitMessageUpdate(ctx: AppContext, messageId: number): Promise<void> {
  const message = await loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, messageId);
  if (!message) return;
  const ticket = await loadTicket(ctx.db, message.ticketId);
  if (!ticket) return;
  ctx.realtime.emitToRooms(ticket.companyId, ticketRooms(ticket), 'appMessage', { action: 'update', message });
}
