import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { tickets, users } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { writeTicketLogs, type TicketLogEntry } from '../../tickets/logs.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { ticketChanged } from '../emit.js';

/** What a queue chatbot step changes on its ticket (behaviours/chatbot.ts). */
export type BotChange = Partial<
  Pick<
    typeof tickets.$inferInsert,
    'queueId' | 'chatbotId' | 'botAttempts' | 'botStartedAt' | 'botFinishedAt' | 'userId' | 'status' | 'useIntegration' | 'integrationId'
  >
>;

export type BotLog = Pick<TicketLogEntry, 'type' | 'queueId' | 'userId'>;

/**
 * How many tickets a user of the company holds: open, or pending in their waiting list
 * (docs/chatbots.md, "Capacity"). One index lookup (tickets_company_user_idx) per user.
 */
export const heldTickets = (companyId: number, userId: SQL | number) =>
  sql<number>`(SELECT count(*)::int FROM ${tickets} WHERE ${tickets.companyId} = ${companyId} AND ${tickets.userId} = ${userId} AND ${tickets.status} IN ('open', 'pending'))`;

/** null or 0: no limit. */
export const hasRoom = (held: number, max: number | null) => !max || held < max;

/** Key class of the per-user advisory lock below. */
const CAPACITY_LOCK = 16_029;

/**
 * Whether automatic assignment may give the company's user one more ticket. The lock (held
 * until the transaction ends) makes two assignments to one user take turns, so they cannot
 * both take the last place.
 */
async function userHasRoom(tx: DbOrTx, companyId: number, userId: number): Promise<boolean> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${CAPACITY_LOCK}, ${userId})`);
  const [row] = await tx
    .select({ max: users.maxOpenTickets, held: heldTickets(companyId, userId) })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.companyId, companyId)));
  return !!row && hasRoom(row.held, row.max);
}

/**
 * One step of the queue chatbot: the change, its log lines (by the system, or the user an
 * `attendent` option names) and `ticket.updated`, in one transaction. Only while the
 * ticket still waits without an attendant, and a user it gives the ticket to has room:
 * false when someone took it meanwhile or that user is full.
 */
export function botStep(ctx: AppContext, ticket: TicketRow, change: BotChange, logs: BotLog[] = []): Promise<boolean> {
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    if (change.userId && !(await userHasRoom(tx, ticket.companyId, change.userId))) return false;
    const [row] = await tx
      .update(tickets)
      .set(change)
      .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, ticket.companyId), inArray(tickets.status, ['pending']), isNull(tickets.userId)))
      .returning({ id: tickets.id });
    if (!row) return false;
    await writeTicketLogs(tx, logs.map((l) => ({ ...l, companyId: ticket.companyId, ticketId: ticket.id })));
    publish(ticketChanged(ctx, ticket.id, { userId: ticket.userId, queueId: ticket.queueId, status: ticket.status }));
    return true;
  });
}

/** LGPD consent: a waiting ticket is held in `lgpd` until its customer accepts (then pending again). False when it moved on meanwhile. */
export function setConsentWait(ctx: AppContext, ticket: TicketRow, status: 'lgpd' | 'pending'): Promise<boolean> {
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const [row] = await tx
      .update(tickets)
      .set({ status })
      .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, ticket.companyId), inArray(tickets.status, ['pending', 'lgpd']), isNull(tickets.userId)))
      .returning({ id: tickets.id });
    if (row) publish(ticketChanged(ctx, ticket.id, { userId: ticket.userId, queueId: ticket.queueId, status: ticket.status }));
    return !!row;
  });
}

/**
 * The router and userRandom: a pending ticket goes to `userId` (still pending, now in that
 * attendant's waiting list), logged `transfered` by the system and `receivedTransfer` by
 * the attendant. Only if nobody changed its owner meanwhile and the attendant has room.
 */
export function assignWaiting(ctx: AppContext, ticket: Pick<TicketRow, 'id' | 'companyId' | 'queueId' | 'userId' | 'status'>, userId: number): Promise<boolean> {
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    if (!(await userHasRoom(tx, ticket.companyId, userId))) return false;
    const [row] = await tx
      .update(tickets)
      .set({ userId })
      .where(and(eq(tickets.id, ticket.id), eq(tickets.status, 'pending'), sql`${tickets.userId} IS NOT DISTINCT FROM ${ticket.userId}`))
      .returning({ id: tickets.id });
    if (!row) return false;
    await writeTicketLogs(tx, [
      { companyId: ticket.companyId, ticketId: ticket.id, type: 'transfered', queueId: ticket.queueId, userId: null },
      { companyId: ticket.companyId, ticketId: ticket.id, type: 'receivedTransfer', queueId: ticket.queueId, userId },
    ]);
    publish(ticketChanged(ctx, ticket.id, { userId: ticket.userId, queueId: ticket.queueId, status: ticket.status }));
    return true;
  });
}
