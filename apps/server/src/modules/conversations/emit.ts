import type { Ticket } from '@balcao/contracts';
import type { AppContext } from '../../http/context.js';
import { loadMessage } from '../messages/queries.js';
import { loadTicket } from '../tickets/queries.js';

/**
 * The message pipeline's announcements, published on the event bus (realtime/ turns them
 * into socket emits); called after the writes they announce have committed.
 */

/** `previous`: the owner and queue before a change, so the users the ticket just left also hear of it (and drop it). */
export async function emitTicketUpdate(
  ctx: AppContext,
  ticketId: number,
  previous?: { userId: number | null; queueId: number | null; status?: string },
): Promise<Ticket | undefined> {
  const ticket = await loadTicket(ctx.db, ticketId);
  if (!ticket) return undefined;
  await ctx.events.publish({ type: 'ticket.updated', ticket, previous });
  return ticket;
}

export async function emitMessageCreate(ctx: AppContext, messageId: number, ticket: Ticket): Promise<void> {
  const message = await loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, messageId);
  if (message) await ctx.events.publish({ type: 'message.created', message, ticket });
}

export async function emitMessageUpdate(ctx: AppContext, messageId: number): Promise<void> {
  const message = await loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, messageId);
  if (!message) return;
  const ticket = await loadTicket(ctx.db, message.ticketId);
  if (ticket) await ctx.events.publish({ type: 'message.updated', message, ticket });
}
