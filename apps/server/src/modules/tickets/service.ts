import { and, eq, inArray } from 'drizzle-orm';
import { can, type closeAllTicketsBody } from '@balcao/contracts';
import type { z } from 'zod';
import { queues } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { closeTicketsOfQueues, deleteTicket as deleteTicketRow } from '../conversations/commands/tickets.js';
import { findTicketRow } from './queries.js';

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
  // Closed meanwhile: the same refusal as above.
  if (!(await deleteTicketRow(ctx, ticket))) throw new AppError('ERR_DELETE_CLOSED_TICKET', 400);
}

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
  const closed = await closeTicketsOfQueues(ctx, { companyId: by.companyId, status: body.status, queueIds, by: by.id });
  return { count: closed.length };
}
