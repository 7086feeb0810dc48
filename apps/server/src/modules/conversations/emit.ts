import type { Message, Ticket } from '@balcao/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { AppContext } from '../../http/context.js';
import type { LazyEvent, PendingEvent } from '../../events/bus.js';
import type { DomainEvent } from '../../events/types.js';
import { loadMessage } from '../messages/queries.js';
import { loadTicket } from '../tickets/queries.js';

/**
 * The message pipeline's announcements, published on the event bus (realtime/ turns them
 * into socket emits). `ticketChanged`/`messageChanged` are what commands publish inside
 * their transaction (presented after the commit); the `emit…` functions announce a change
 * that has already committed.
 */

/** Owner, queue and status before a change, so the users the ticket just left also hear of it (and drop it). */
export type PreviousScope = { userId: number | null; queueId: number | null; status?: string };

async function ticketUpdatedEvent(db: DbOrTx, ticketId: number, previous?: PreviousScope): Promise<(DomainEvent & { type: 'ticket.updated' }) | undefined> {
  const ticket = await loadTicket(db, ticketId);
  return ticket && { type: 'ticket.updated', ticket, previous };
}

/** The message and its ticket as they are now. */
async function messageUpdatedEvent(ctx: AppContext, messageId: number): Promise<(DomainEvent & { type: 'message.updated' }) | undefined> {
  const message = await loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, messageId);
  const ticket = message && (await loadTicket(ctx.db, message.ticketId));
  return ticket && { type: 'message.updated', message: message!, ticket };
}

/** `ticket.updated`, presented once committed; `seen` gets the presented ticket (a command's answer). */
export function ticketChanged(ctx: AppContext, ticketId: number, previous?: PreviousScope, seen?: (ticket: Ticket) => void): LazyEvent {
  const present = async () => {
    const event = await ticketUpdatedEvent(ctx.db, ticketId, previous);
    if (event) seen?.(event.ticket);
    return event;
  };
  // With the status before, the transaction knows it may be a status change (the webhook outbox writes with it).
  return previous?.status ? Object.assign(present, { fact: { type: 'ticket.status' as const, changes: [{ ticketId, previousStatus: previous.status }] } }) : present;
}

/** `message.updated`, presented once committed; `seen` gets the presented message. */
export const messageChanged =
  (ctx: AppContext, messageId: number, seen?: (message: Message) => void): PendingEvent =>
  async () => {
    const event = await messageUpdatedEvent(ctx, messageId);
    if (event) seen?.(event.message);
    return event;
  };

export async function emitTicketUpdate(ctx: AppContext, ticketId: number, previous?: PreviousScope): Promise<Ticket | undefined> {
  const event = await ticketUpdatedEvent(ctx.db, ticketId, previous);
  if (!event) return undefined;
  await ctx.events.publish(event);
  return event.ticket;
}

export async function emitMessageCreate(ctx: AppContext, messageId: number, ticket: Ticket): Promise<void> {
  const message = await loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, messageId);
  if (message) await ctx.events.publish({ type: 'message.created', message, ticket });
}

export async function emitMessageUpdate(ctx: AppContext, messageId: number): Promise<void> {
  const event = await messageUpdatedEvent(ctx, messageId);
  if (event) await ctx.events.publish(event);
}
