import { ACTIVE_TICKET_STATUSES, type Channel, type Ticket, type TicketStatus } from '@balcao/contracts';
import { and, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { ACTIVE_TICKET_PREDICATE, tickets, users, whatsapps } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { AppError } from '../../../http/errors.js';
import type { PendingEvent } from '../../../events/bus.js';
import { writeTicketLogs, type TicketLogEntry } from '../../tickets/logs.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { findTicketRow, loadTickets } from '../../tickets/queries.js';
import { queueIntegrationOf } from '../../queue-integrations/queries.js';
import { sendConnectionMessage } from '../behaviours/send.js';
import { ticketChanged } from '../emit.js';

/**
 * The ticket commands: every write of `tickets` outside the message pipeline. Callers
 * check who may do what first (modules/tickets/ for the HTTP routes); a command writes,
 * logs and publishes in one transaction (docs/conversations.md lists them).
 */

type Publish = (event: PendingEvent) => void;
type Change = Partial<
  Pick<typeof tickets.$inferInsert, 'status' | 'userId' | 'queueId' | 'closedAt' | 'ratingRequestedAt' | 'npsAttempts' | 'useIntegration' | 'integrationId' | 'integrationStoppedAt'>
>;
/** A log line of the acting user unless it names another. */
type LogLine = Pick<TicketLogEntry, 'type' | 'queueId'> & { userId?: number | null };

/** `ticket.updated` once committed, with the scope before the change (the rooms it left hear it too). */
const announce = (ctx: AppContext, publish: Publish, ticketId: number, previous?: TicketRow) =>
  publish(ticketChanged(ctx, ticketId, previous && { userId: previous.userId, queueId: previous.queueId, status: previous.status }));

/** UPDATE … WHERE status IN `from`, its log lines and the event, in one transaction; false when the status had moved on. */
function move(ctx: AppContext, ticket: TicketRow, from: readonly TicketStatus[], change: Change, logs: LogLine[], by: number | null): Promise<boolean> {
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const [row] = await tx
      .update(tickets)
      .set(change)
      .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, ticket.companyId), inArray(tickets.status, [...from])))
      .returning({ id: tickets.id });
    if (!row) return false;
    await writeTicketLogs(
      tx,
      logs.map((l) => ({ companyId: ticket.companyId, ticketId: ticket.id, type: l.type, queueId: l.queueId, userId: l.userId === undefined ? by : l.userId })),
    );
    announce(ctx, publish, ticket.id, ticket);
    return true;
  });
}

/** A `queue` entry when the ticket is taken into another queue than its own (or its first one). */
const queueChange = (ticket: TicketRow, queueId: number): LogLine[] => (queueId !== ticket.queueId ? [{ type: 'queue', queueId }] : []);

export interface TakeTicket {
  /** The acting user, who owns the ticket afterwards. */
  by: number;
  queueId: number;
  /** open, or group for a WhatsApp group. */
  status: TicketStatus;
}

/** pending → `status` for `by` in `queueId`; logs `queue` (another queue) and `open`. False when it was no longer pending. */
export function acceptTicket(ctx: AppContext, ticket: TicketRow, to: TakeTicket): Promise<boolean> {
  return move(ctx, ticket, ['pending'], { status: to.status, userId: to.by, queueId: to.queueId }, [...queueChange(ticket, to.queueId), { type: 'open', queueId: to.queueId }], to.by);
}

/** closed → `status` for `by`; logs `queue` and `reopen`. Throws the unique violation when the contact has another live ticket there. */
export function reopenTicket(ctx: AppContext, ticket: TicketRow, to: TakeTicket): Promise<boolean> {
  return move(
    ctx,
    ticket,
    ['closed'],
    { status: to.status, userId: to.by, queueId: to.queueId, closedAt: null, ratingRequestedAt: null, npsAttempts: 0 },
    [...queueChange(ticket, to.queueId), { type: 'reopen', queueId: to.queueId }],
    to.by,
  );
}

/** open → pending, owner cleared; logs `pending`. */
export function returnTicket(ctx: AppContext, ticket: TicketRow, by: number): Promise<boolean> {
  return move(ctx, ticket, ['open'], { status: 'pending', userId: null }, [{ type: 'pending', queueId: ticket.queueId }], by);
}

export interface TransferTicket {
  by: number;
  queueId: number;
  /** The receiving user; null leaves the ticket pending in the queue. */
  userId: number | null;
  /** The status with a receiving user (open, group for groups); ignored without one. */
  status: TicketStatus;
  /** The company's closeTicketOnTransfer: close this ticket and go on in a new one at the destination. */
  closeOnTransfer: boolean;
}

/**
 * Transfer to a queue (and user): logs `transfered` (the acting user) and
 * `receivedTransfer` (the receiver). Without a user, a queue with an Integration takes the
 * conversation (as its bot would: `useIntegration`, a system `chatBot` entry). Answers the
 * ticket the conversation goes on in, undefined when the ticket was closed meanwhile.
 */
export async function transferTicket(ctx: AppContext, ticket: TicketRow, to: TransferTicket): Promise<number | undefined> {
  const status = to.userId ? to.status : 'pending';
  const integrationId = to.userId || ticket.isGroup ? null : await queueIntegrationOf(ctx.db, ticket.companyId, to.queueId);
  // Also after an earlier integration gave up (integration_stopped_at): a person chose this queue.
  const handOver: Change = integrationId ? { useIntegration: true, integrationId, integrationStoppedAt: null } : {};
  if (to.closeOnTransfer) return transferToNewTicket(ctx, ticket, { ...to, status }, handOver);
  const logs: LogLine[] = [{ type: 'transfered', queueId: to.queueId }];
  if (to.userId) logs.push({ type: 'receivedTransfer', queueId: to.queueId, userId: to.userId });
  if (integrationId) logs.push({ type: 'chatBot', queueId: to.queueId, userId: null });
  const moved = await move(ctx, ticket, ['pending', 'open', 'group'], { status, userId: to.userId, queueId: to.queueId, ...handOver }, logs, to.by);
  return moved ? ticket.id : undefined;
}

/**
 * closeTicketOnTransfer: the ticket is closed (`transfered` and `closed` by the acting user)
 * and a new one opened for the contact on the same connection at the destination (`create`
 * and, with a user, `receivedTransfer`), in one transaction.
 */
function transferToNewTicket(ctx: AppContext, ticket: TicketRow, to: TransferTicket, handOver: Change): Promise<number | undefined> {
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const [closed] = await tx
      .update(tickets)
      .set({ status: 'closed', closedAt: new Date(), unreadMessages: 0 })
      .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, ticket.companyId), inArray(tickets.status, ['pending', 'open', 'group'])))
      .returning({ id: tickets.id });
    if (!closed) return undefined;
    const [row] = await tx
      .insert(tickets)
      .values({
        companyId: ticket.companyId,
        contactId: ticket.contactId,
        whatsappId: ticket.whatsappId,
        channel: ticket.channel,
        isGroup: ticket.isGroup,
        status: to.status,
        userId: to.userId,
        queueId: to.queueId,
        lastMessage: ticket.lastMessage,
        lastMessageAt: ticket.lastMessageAt,
        ...handOver,
      })
      .returning({ id: tickets.id });
    const created = row!.id;
    const line = (ticketId: number, type: TicketLogEntry['type'], userId: number | null) => ({ companyId: ticket.companyId, ticketId, type, queueId: to.queueId, userId });
    await writeTicketLogs(tx, [
      line(ticket.id, 'transfered', to.by),
      line(ticket.id, 'closed', to.by),
      line(created, 'create', to.by),
      ...(to.userId ? [line(created, 'receivedTransfer', to.userId)] : []),
      ...(handOver.useIntegration ? [line(created, 'chatBot', null)] : []),
    ]);
    announce(ctx, publish, ticket.id, ticket);
    announce(ctx, publish, created);
    return created;
  });
}

export interface OpenTicket {
  companyId: number;
  contactId: number;
  whatsappId: number;
  channel: Channel;
  isGroup: boolean;
  status: TicketStatus;
  queueId: number;
  /** The owner. */
  userId: number;
  /** Who opened it (the `create` entry). */
  by: number;
}

/** A new live ticket (logs `create`); undefined when the contact already has a live ticket on that connection. */
export async function openTicket(ctx: AppContext, input: OpenTicket): Promise<Ticket | undefined> {
  let presented: Ticket | undefined;
  await ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const { by, ...values } = input;
    const [row] = await tx
      .insert(tickets)
      .values(values)
      .onConflictDoNothing({ target: [tickets.contactId, tickets.whatsappId], where: ACTIVE_TICKET_PREDICATE })
      .returning({ id: tickets.id });
    if (!row) return;
    await writeTicketLogs(tx, [{ companyId: input.companyId, ticketId: row.id, type: 'create', userId: by, queueId: input.queueId }]);
    publish(ticketChanged(ctx, row.id, undefined, (ticket) => (presented = ticket)));
  });
  return presented;
}

export async function setTicketIntegration(ctx: AppContext, ticket: TicketRow, useIntegration: boolean): Promise<void> {
  await ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    await tx
      .update(tickets)
      .set({ useIntegration })
      .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, ticket.companyId)));
    announce(ctx, publish, ticket.id);
  });
}

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
    // The attendant's close is logged now; the later close after the answer is the same resolution.
    const asked = await move(ctx, ticket, from, { status: 'nps', ratingRequestedAt: new Date(), npsAttempts: 0 }, [{ type: 'closed', queueId: ticket.queueId }], input.userId ?? null);
    if (!asked) throw invalidTransition();
    await sendConnectionMessage(ctx, ticket.id, connection.ratingMessage);
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
 * resolution was already logged when the rating was asked), and the update event.
 * False when the ticket was already closed, or not in `from`.
 */
export function markClosed(ctx: AppContext, ticketId: number, opts: { userId?: number | null; from?: readonly TicketStatus[] } = {}): Promise<boolean> {
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const [before] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for('update');
    if (!before || before.status === 'closed' || (opts.from && !opts.from.includes(before.status))) return false;
    await tx.update(tickets).set({ status: 'closed', closedAt: new Date(), unreadMessages: 0 }).where(eq(tickets.id, ticketId));
    if (before.status !== 'nps') {
      await writeTicketLogs(tx, [{ companyId: before.companyId, ticketId, type: 'closed', userId: opts.userId, queueId: before.queueId }]);
    }
    // With the status before: subscribers (outbound webhooks) tell a status change from other updates.
    announce(ctx, publish, ticketId, before);
    return true;
  });
}

/**
 * Closes tickets opened only to carry an outgoing message (the schedule engine's burst: `openTicket`
 * disabled), in one UPDATE with their `closed` log lines, as `markClosed` does one by one. No event:
 * the caller announces each ticket with its message, one event per ticket instead of two.
 */
export async function closeCarrierTickets(db: DbOrTx, companyId: number, ticketIds: number[]): Promise<void> {
  if (ticketIds.length === 0) return;
  await db.transaction(async (tx) => {
    const rows = await tx
      .update(tickets)
      .set({ status: 'closed', closedAt: new Date(), unreadMessages: 0 })
      .where(and(eq(tickets.companyId, companyId), inArray(tickets.id, ticketIds), ne(tickets.status, 'closed')))
      .returning({ id: tickets.id, queueId: tickets.queueId });
    await writeTicketLogs(tx, rows.map((r) => ({ companyId, ticketId: r.id, type: 'closed' as const, queueId: r.queueId })));
  });
}

/** Tickets loaded per query for the events of a mass close (their includes come batched). */
const MASS_CLOSE_EMIT_BATCH = 200;

/** A ticket a mass close closed, with its scope before (a close changes only the status). */
type Closed = { id: number; userId: number | null; queueId: number | null; status: TicketStatus };

/**
 * In a mass close's transaction: the status facts of all its tickets at once (the webhook outbox),
 * as `markClosed` records one.
 */
const recordClosed = (ctx: AppContext, tx: DbOrTx, closed: Closed[]) =>
  ctx.events.record(tx, { type: 'ticket.status', changes: closed.map((c) => ({ ticketId: c.id, previousStatus: c.status })) });

/**
 * The events of a mass close, as a single close publishes them (`ticket.updated` with the scope
 * before: the rooms it left hear `delete`, webhooks a status change), from batched loads.
 */
async function announceClosed(ctx: AppContext, closed: Closed[]): Promise<void> {
  const before = new Map(closed.map((c) => [c.id, c]));
  for (let i = 0; i < closed.length; i += MASS_CLOSE_EMIT_BATCH) {
    const batch = await loadTickets(ctx.db, inArray(tickets.id, closed.slice(i, i + MASS_CLOSE_EMIT_BATCH).map((c) => c.id)));
    await ctx.events.publish(
      ...batch.map((ticket) => {
        const { userId, queueId, status } = before.get(ticket.id)!;
        return { type: 'ticket.updated' as const, ticket, previous: { userId, queueId, status } };
      }),
    );
  }
}

/** "Close imported tickets" and the automatic close after an import: the live tickets an import created, without messages. */
export async function closeImportedTickets(ctx: AppContext, companyId: number, whatsappId: number): Promise<number> {
  const closed = await ctx.db.transaction(async (tx) => {
    // Their statuses before differ (pending, open…): read under lock, then one UPDATE.
    const live = await tx
      .select({ id: tickets.id, userId: tickets.userId, queueId: tickets.queueId, status: tickets.status })
      .from(tickets)
      .where(
        and(
          eq(tickets.companyId, companyId),
          eq(tickets.whatsappId, whatsappId),
          isNotNull(tickets.importedAt),
          inArray(tickets.status, [...ACTIVE_TICKET_STATUSES]),
        ),
      )
      .for('update');
    if (live.length === 0) return live;
    await tx
      .update(tickets)
      .set({ status: 'closed', closedAt: new Date(), unreadMessages: 0 })
      .where(inArray(tickets.id, live.map((t) => t.id)));
    await recordClosed(ctx, tx, live);
    return live;
  });
  await announceClosed(ctx, closed);
  return closed.length;
}

/**
 * Close-all: the company's tickets of one status in the queues, without farewell; one
 * `closed` entry each (by the acting user). The events go out after the reply.
 */
export async function closeTicketsOfQueues(ctx: AppContext, input: { companyId: number; status: TicketStatus; queueIds: number[]; by: number }): Promise<number[]> {
  const closed = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(tickets)
      .set({ status: 'closed', closedAt: new Date(), unreadMessages: 0 })
      .where(and(eq(tickets.companyId, input.companyId), eq(tickets.status, input.status), inArray(tickets.queueId, input.queueIds)))
      .returning({ id: tickets.id, userId: tickets.userId, queueId: tickets.queueId });
    await writeTicketLogs(
      tx,
      rows.map((r) => ({ companyId: input.companyId, ticketId: r.id, type: 'closed' as const, userId: input.by, queueId: r.queueId })),
    );
    const closed = rows.map((r) => ({ ...r, status: input.status }));
    await recordClosed(ctx, tx, closed);
    return closed;
  });
  ctx.background.run('close-all updates', () => announceClosed(ctx, closed));
  return closed.map((c) => c.id);
}

/** Deletes a live ticket (its messages and log go with it); its rooms hear `delete`. False when it was closed meanwhile. */
export function deleteTicket(ctx: AppContext, ticket: TicketRow): Promise<boolean> {
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const [deleted] = await tx
      .delete(tickets)
      .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, ticket.companyId), inArray(tickets.status, [...ACTIVE_TICKET_STATUSES])))
      .returning({ id: tickets.id });
    if (deleted) publish({ type: 'ticket.deleted', ticket });
    return !!deleted;
  });
}
