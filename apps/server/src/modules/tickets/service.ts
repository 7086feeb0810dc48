import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { ACTIVE_TICKET_STATUSES, can, type closeAllTicketsBody, type TicketStatus } from '@balcao/contracts';
import type { z } from 'zod';
import { queues, tickets, users, whatsapps } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { emitTicketUpdate } from '../conversations/emit.js';
import { sendConnectionMessage } from '../conversations/behaviours/send.js';
import { writeTicketLogs } from './logs.js';
import { findTicketRow, loadTickets } from './queries.js';

export interface CloseTicketInput {
  companyId: number;
  ticketId: number;
  /** With the farewell (and the NPS question when the connection has a rating message). */
  sendFarewell?: boolean;
  /** The attendant who closes it: their own farewellMessage, when set, replaces the connection's; the ticket log names them. */
  userId?: number | null;
  /**
   * The statuses it may close from. Given (an attendant's action), any other status — a
   * concurrent change won — is a 409 ERR_INVALID_TRANSITION; omitted, a closed ticket is left alone.
   */
  from?: readonly TicketStatus[];
}

const invalidTransition = () => new AppError('ERR_INVALID_TRANSITION', 409);

/**
 * Closes a ticket. When its connection has a rating message (and the ticket is not a
 * group), the customer is first asked for a 0–10 rating: the ticket waits in `nps`
 * and closes when the answer arrives or expires. Otherwise the ticket closes now and the
 * farewell goes out (only by the caller that actually closed it).
 */
export async function closeTicket(ctx: AppContext, input: CloseTicketInput): Promise<void> {
  const ticket = await findTicketRow(ctx.db, input.companyId, input.ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  const from = input.from ?? ACTIVE_TICKET_STATUSES;
  if (!from.includes(ticket.status)) {
    if (input.from) throw invalidTransition();
    return;
  }
  const [connection] = ticket.whatsappId ? await ctx.db.select().from(whatsapps).where(eq(whatsapps.id, ticket.whatsappId)) : [];
  const farewell = input.sendFarewell !== false && !ticket.isGroup && connection;

  if (farewell && connection.ratingMessage.trim() && ticket.status !== 'nps') {
    const asked = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(tickets)
        .set({ status: 'nps', ratingRequestedAt: new Date(), npsAttempts: 0 })
        .where(and(eq(tickets.id, ticket.id), inArray(tickets.status, [...from])))
        .returning({ id: tickets.id });
      // The attendant's close is logged now; the later close after the answer is the same resolution.
      if (row) await writeTicketLogs(tx, [{ companyId: ticket.companyId, ticketId: ticket.id, type: 'closed', userId: input.userId, queueId: ticket.queueId }]);
      return !!row;
    });
    if (!asked) throw invalidTransition();
    await sendConnectionMessage(ctx, ticket.id, connection.ratingMessage);
    await emitTicketUpdate(ctx, ticket.id);
    return;
  }
  const closed = await markClosed(ctx, ticket.id, { userId: input.userId, from });
  if (!closed) {
    if (input.from) throw invalidTransition();
    return;
  }
  const text = farewell ? (await farewellOf(ctx, input.userId)) || connection.complationMessage : '';
  if (text.trim()) await sendConnectionMessage(ctx, ticket.id, text);
}

async function farewellOf(ctx: AppContext, userId: number | null | undefined): Promise<string> {
  if (!userId) return '';
  const [row] = await ctx.db.select({ farewellMessage: users.farewellMessage }).from(users).where(eq(users.id, userId));
  return row?.farewellMessage?.trim() ? row.farewellMessage : '';
}

/**
 * Status closed, unread reset, a 'closed' ticket log (unless it closes a ticket whose
 * resolution was already logged when the rating was asked), then the update event.
 * False when the ticket was already closed, or not in `from`.
 */
export async function markClosed(ctx: AppContext, ticketId: number, opts: { userId?: number | null; from?: readonly TicketStatus[] } = {}): Promise<boolean> {
  const closed = await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for('update');
    if (!before || before.status === 'closed' || (opts.from && !opts.from.includes(before.status))) return false;
    await tx.update(tickets).set({ status: 'closed', closedAt: new Date(), unreadMessages: 0 }).where(eq(tickets.id, ticketId));
    if (before.status !== 'nps') {
      await writeTicketLogs(tx, [{ companyId: before.companyId, ticketId, type: 'closed', userId: opts.userId, queueId: before.queueId }]);
    }
    return true;
  });
  if (closed) await emitTicketUpdate(ctx, ticketId);
  return closed;
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

const mayDo = (by: AuthUser, permission: Parameters<typeof can>[1]) => by.super || can(by.profile, permission);

/**
 * `DELETE /tickets/{id}`: permission ticket-options:deleteTicket; a closed ticket is
 * refused (spec 2 §4: 'PARA DELETAR REABRA O TICKET'). Its rooms hear `delete`.
 */
export async function deleteTicket(ctx: AppContext, by: AuthUser, ticketId: number): Promise<void> {
  if (!mayDo(by, 'ticket-options:deleteTicket')) throw new AppError('ERR_NO_PERMISSION', 403);
  const ticket = await findTicketRow(ctx.db, by.companyId, ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  if (ticket.status === 'closed') throw new AppError('ERR_DELETE_CLOSED_TICKET', 400);
  const [deleted] = await ctx.db
    .delete(tickets)
    .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, by.companyId), inArray(tickets.status, [...ACTIVE_TICKET_STATUSES])))
    .returning({ id: tickets.id });
  // Closed meanwhile: the same refusal as above.
  if (!deleted) throw new AppError('ERR_DELETE_CLOSED_TICKET', 400);
  await ctx.events.publish({ type: 'ticket.deleted', ticket });
}

/** Tickets loaded per query for the close-all events (their includes come batched). */
const CLOSE_ALL_EMIT_BATCH = 200;

/**
 * `POST /tickets/closeAll` (admin, tickets-manager:closeAll): closes the company's tickets
 * of one status in the selected queues, without farewell; one 'closed' log per ticket.
 * Every queue id must be the company's (404). The updates go out after the reply.
 */
export async function closeAllTickets(ctx: AppContext, by: AuthUser, body: z.output<typeof closeAllTicketsBody>): Promise<{ count: number }> {
  if (!mayDo(by, 'tickets-manager:closeAll')) throw new AppError('ERR_NO_PERMISSION', 403);
  const queueIds = [...new Set(body.selectedQueueIds)];
  if (queueIds.length === 0) return { count: 0 };
  const own = await ctx.db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, by.companyId), inArray(queues.id, queueIds)));
  if (own.length !== queueIds.length) throw new AppError('ERR_NO_QUEUE_FOUND', 404);

  const closed = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(tickets)
      .set({ status: 'closed', closedAt: new Date(), unreadMessages: 0 })
      .where(and(eq(tickets.companyId, by.companyId), eq(tickets.status, body.status), inArray(tickets.queueId, queueIds)))
      .returning({ id: tickets.id, queueId: tickets.queueId });
    await writeTicketLogs(
      tx,
      rows.map((r) => ({ companyId: by.companyId, ticketId: r.id, type: 'closed' as const, userId: by.id, queueId: r.queueId })),
    );
    return rows;
  });
  ctx.background.run('close-all updates', async () => {
    for (let i = 0; i < closed.length; i += CLOSE_ALL_EMIT_BATCH) {
      const batch = await loadTickets(ctx.db, inArray(tickets.id, closed.slice(i, i + CLOSE_ALL_EMIT_BATCH).map((r) => r.id)));
      await ctx.events.publish(...batch.map((ticket) => ({ type: 'ticket.updated' as const, ticket })));
    }
  });
  return { count: closed.length };
}
