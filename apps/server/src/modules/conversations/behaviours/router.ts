import { and, asc, desc, eq, gt, isNotNull, ne, sql } from 'drizzle-orm';
import { companySettings, queues, ticketLogs, tickets, userQueues, users } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { assignWaiting, hasRoom, heldTickets } from '../commands/automation-bot.js';

const hhmm = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;

/** An attendant who may receive a queue's tickets, with the tickets they hold and their capacity (null/0: unlimited). */
export interface Attendant {
  id: number;
  held: number;
  max: number | null;
}

/**
 * Who may receive a queue's tickets now: its attendants who are online and inside their
 * startWork–endWork (server time), by id, each with the tickets they hold — one query,
 * however many attendants.
 */
export async function onlineAttendants(ctx: AppContext, companyId: number, queueId: number, now = new Date()): Promise<Attendant[]> {
  const rows = await ctx.db
    .select({ id: users.id, startWork: users.startWork, endWork: users.endWork, max: users.maxOpenTickets, held: heldTickets(companyId, sql`${users.id}`) })
    .from(userQueues)
    .innerJoin(users, eq(users.id, userQueues.userId))
    .where(and(eq(userQueues.companyId, companyId), eq(userQueues.queueId, queueId), eq(users.online, true)))
    .orderBy(asc(users.id));
  const time = hhmm(now);
  return rows
    .filter((u) => (u.startWork <= u.endWork ? time >= u.startWork && time <= u.endWork : time >= u.startWork || time <= u.endWork))
    .map(({ id, held, max }) => ({ id, held, max }));
}

/** `userRandom`: a ticket the bot leaves waiting in a queue goes to one of its online attendants with room, at random. */
export async function assignRandomAttendant(ctx: AppContext, ticket: TicketRow): Promise<void> {
  if (ticket.queueId === null || ticket.userId !== null) return;
  const [settings] = await ctx.db.select({ userRandom: companySettings.userRandom }).from(companySettings).where(eq(companySettings.companyId, ticket.companyId));
  if (settings?.userRandom !== 'enabled') return;
  const candidates = (await onlineAttendants(ctx, ticket.companyId, ticket.queueId)).filter((a) => hasRoom(a.held, a.max));
  const chosen = candidates[Math.floor(Math.random() * candidates.length)];
  if (chosen !== undefined) await assignWaiting(ctx, ticket, chosen.id);
}

/** The first attendant with room after `current` (by id, wrapping round), never `current` itself. */
function nextWithRoom(attendants: Attendant[], current: number | null): Attendant | undefined {
  const after = current ?? 0;
  const inTurn = [...attendants.filter((a) => a.id > after), ...attendants.filter((a) => a.id <= after)];
  return inTurn.find((a) => a.id !== current && hasRoom(a.held, a.max));
}

/**
 * The router (`ativarRoteador`, every `tempoRoteador` minutes): a pending ticket of the queue
 * that nobody took since its last transition (its latest log, or its creation) goes to the
 * next online attendant with room after its current one (by id, wrapping round); one without
 * an attendant to the first. Tickets the bot still leads are left alone. Run every minute.
 */
export async function rotateQueueTickets(ctx: AppContext, now = new Date()): Promise<number> {
  const routed = await ctx.db.select().from(queues).where(and(eq(queues.ativarRoteador, true), gt(queues.tempoRoteador, 0)));
  let moved = 0;
  for (const queue of routed) {
    const cutoff = new Date(now.getTime() - queue.tempoRoteador * 60_000);
    const lastChange = sql`coalesce((select max(${ticketLogs.createdAt}) from ${ticketLogs} where ${ticketLogs.ticketId} = ${tickets.id}), ${tickets.createdAt})`;
    const due = await ctx.db
      .select()
      .from(tickets)
      .where(
        and(
          eq(tickets.companyId, queue.companyId),
          eq(tickets.queueId, queue.id),
          eq(tickets.status, 'pending'),
          sql`(${tickets.botStartedAt} IS NULL OR ${isNotNull(tickets.botFinishedAt)})`,
          sql`${lastChange} < ${cutoff}`,
        ),
      )
      .orderBy(asc(tickets.id))
      .limit(500);
    if (due.length === 0) continue;
    const attendants = await onlineAttendants(ctx, queue.companyId, queue.id, now);
    for (const ticket of due) {
      const next = nextWithRoom(attendants, ticket.userId);
      if (next === undefined || !(await assignWaiting(ctx, ticket, next.id))) continue;
      moved += 1;
      // The counts move with the ticket, for the next tickets of this round.
      next.held += 1;
      const previous = attendants.find((a) => a.id === ticket.userId);
      if (previous) previous.held -= 1;
    }
  }
  return moved;
}

/**
 * `DirectTicketsToWallets`: the attendant who served the contact last (their latest closed
 * ticket with an attendant), when that user is still the company's; undefined otherwise.
 * The handover itself (botStep) refuses an attendant at capacity: the menu runs instead.
 */
export async function walletOwner(ctx: AppContext, ticket: TicketRow): Promise<{ userId: number; queueId: number | null } | undefined> {
  const [settings] = await ctx.db
    .select({ wallets: companySettings.DirectTicketsToWallets })
    .from(companySettings)
    .where(eq(companySettings.companyId, ticket.companyId));
  if (settings?.wallets !== 'enabled') return undefined;
  const [last] = await ctx.db
    .select({ userId: tickets.userId, queueId: tickets.queueId })
    .from(tickets)
    .innerJoin(users, and(eq(users.id, tickets.userId), eq(users.companyId, ticket.companyId)))
    .where(and(eq(tickets.companyId, ticket.companyId), eq(tickets.contactId, ticket.contactId), eq(tickets.status, 'closed'), ne(tickets.id, ticket.id)))
    .orderBy(desc(tickets.closedAt))
    .limit(1);
  return last?.userId ? { userId: last.userId, queueId: last.queueId } : undefined;
}
