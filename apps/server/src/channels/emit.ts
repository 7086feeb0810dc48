import type { Ticket } from '@balcao/contracts';
import type { AppContext } from '../http/context.js';
import { emitWithMaskedNumbers } from '../modules/contacts/lgpd.js';
import { loadMessage } from '../modules/messages/queries.js';
import { loadTicket } from '../modules/tickets/queries.js';
import { ticketRooms } from '../modules/tickets/rooms.js';

/** Socket emits of the message pipeline; called after the writes they announce have committed. */

/** `previous`: the owner and queue before a change, so the users the ticket just left also hear of it (and drop it). */
export async function emitTicketUpdate(
  ctx: AppContext,
  ticketId: number,
  previous?: { userId: number | null; queueId: number | null },
): Promise<Ticket | undefined> {
  const ticket = await loadTicket(ctx.db, ticketId);
  if (!ticket) return undefined;
  const rooms = previous ? [...new Set([...ticketRooms(ticket), ...ticketRooms(previous)])] : ticketRooms(ticket);
  await emitWithMaskedNumbers(ctx, ticket.companyId, rooms, 'ticket', (mask) => ({ action: 'update', ticket: { ...ticket, contact: mask(ticket.contact) } }));
  return ticket;
}

export async function emitMessageCreate(ctx: AppContext, messageId: number, ticket: Ticket): Promise<void> {
  const message = await loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, messageId);
  if (!message) return;
  await emitWithMaskedNumbers(ctx, ticket.companyId, ticketRooms(ticket), 'appMessage', (mask) => {
    const contact = mask(ticket.contact);
    return { action: 'create', message, ticket: { ...ticket, contact }, contact };
  });
}

export async function emitMessageUpdate(ctx: AppContext, messageId: number): Promise<void> {
  const message = await loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, messageId);
  if (!message) return;
  const ticket = await loadTicket(ctx.db, message.ticketId);
  if (!ticket) return;
  ctx.realtime.emitToRooms(ticket.companyId, ticketRooms(ticket), 'appMessage', { action: 'update', message });
}
