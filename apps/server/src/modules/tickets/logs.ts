import type { TicketLog, TicketLogType } from '@balcao/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { queues, ticketLogs, users } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { findTicketRow } from './queries.js';
import { assertCanSeeTicket, loadViewer } from './visibility.js';

export interface TicketLogEntry {
  companyId: number;
  ticketId: number;
  type: TicketLogType;
  /** Who acted (or, for receivedTransfer, who received); null for the system. */
  userId?: number | null;
  queueId?: number | null;
}

/** Writes ticket-log entries (spec 2 §3), in the caller's transaction when it has one. */
export async function writeTicketLogs(db: DbOrTx, entries: TicketLogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db.insert(ticketLogs).values(entries.map((e) => ({ ...e, userId: e.userId ?? null, queueId: e.queueId ?? null })));
}

/** `GET /tickets-log/{ticketId}`: the ticket's history, oldest first, for whoever may see the ticket. */
export async function listTicketLogs(ctx: AppContext, by: AuthUser, ticketId: number): Promise<TicketLog[]> {
  const ticket = await findTicketRow(ctx.db, by.companyId, ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  assertCanSeeTicket(await loadViewer(ctx.db, by), ticket);
  const rows = await ctx.db
    .select({
      log: ticketLogs,
      user: { id: users.id, name: users.name },
      queue: { id: queues.id, name: queues.name, color: queues.color },
    })
    .from(ticketLogs)
    .leftJoin(users, eq(users.id, ticketLogs.userId))
    .leftJoin(queues, eq(queues.id, ticketLogs.queueId))
    .where(and(eq(ticketLogs.companyId, by.companyId), eq(ticketLogs.ticketId, ticket.id)))
    .orderBy(asc(ticketLogs.createdAt), asc(ticketLogs.id));
  return rows.map(({ log, user, queue }) => ({
    id: log.id,
    type: log.type,
    createdAt: log.createdAt.toISOString(),
    ticketId: log.ticketId,
    user,
    queue,
  }));
}
