import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { ACTIVE_TICKET_STATUSES } from '@balcao/contracts';
import { tickets, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { emitTicketUpdate } from '../../channels/emit.js';
import { sendConnectionMessage } from '../../channels/behaviours/send.js';
import { findTicketRow } from './queries.js';

export interface CloseTicketInput {
  companyId: number;
  ticketId: number;
  /** With the farewell (and the NPS question when the connection has a rating message). */
  sendFarewell?: boolean;
}

/**
 * Closes a ticket. When its connection has a rating message (and the ticket is not a
 * group), the customer is first asked for a 0–10 rating: the ticket waits in `nps`
 * and closes when the answer arrives or expires. Otherwise the farewell
 * (`complationMessage`) goes out and the ticket closes now.
 */
export async function closeTicket(ctx: AppContext, input: CloseTicketInput): Promise<void> {
  const ticket = await findTicketRow(ctx.db, input.companyId, input.ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  if (ticket.status === 'closed') return;
  const [connection] = ticket.whatsappId ? await ctx.db.select().from(whatsapps).where(eq(whatsapps.id, ticket.whatsappId)) : [];
  const farewell = input.sendFarewell !== false && !ticket.isGroup && connection;

  if (farewell && connection.ratingMessage.trim() && ticket.status !== 'nps') {
    await ctx.db.update(tickets).set({ status: 'nps', ratingRequestedAt: new Date(), npsAttempts: 0 }).where(eq(tickets.id, ticket.id));
    await sendConnectionMessage(ctx, ticket.id, connection.ratingMessage);
    await emitTicketUpdate(ctx, ticket.id);
    return;
  }
  if (farewell && connection.complationMessage.trim()) await sendConnectionMessage(ctx, ticket.id, connection.complationMessage);
  await markClosed(ctx, ticket.id);
}

/** Status closed, unread reset, then the update event. */
export async function markClosed(ctx: AppContext, ticketId: number): Promise<void> {
  await ctx.db.update(tickets).set({ status: 'closed', closedAt: new Date(), unreadMessages: 0 }).where(eq(tickets.id, ticketId));
  await emitTicketUpdate(ctx, ticketId);
}

/** "Close imported tickets" (`POST /closedimported/{id}`) and the automatic close after an import. */
export async function closeImportedTickets(ctx: AppContext, companyId: number, whatsappId: number): Promise<number> {
  const rows = await ctx.db
    .update(tickets)
    .set({ status: 'closed', closedAt: new Date(), unreadMessages: 0 })
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.whatsappId, whatsappId),
        isNotNull(tickets.importedAt),
        inArray(tickets.status, [...ACTIVE_TICKET_STATUSES]),
      ),
    )
    .returning({ id: tickets.id });
  for (const r of rows) await emitTicketUpdate(ctx, r.id);
  return rows.length;
}
