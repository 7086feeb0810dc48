import { and, asc, desc, eq, gt, isNotNull, ne, sql } from 'drizzle-orm';
import { companySettings, queues, ticketLogs, tickets, userQueues, users } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { assignWaiting } from '../commands/automation-bot.js';

const hhmm = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;

/** Who may receive a queue's tickets now: its attendants who are online and inside their startWork–endWork (server time), by id. */
export async function onlineAttendants(ctx: AppContext, companyId: number, queueId: number, now = new Date()): Promise<number[]> {
  const rows = await ctx.db
    .select({ id: users.id, startWork: users.startWork, endWork: users.endWork })
    .from(userQueues)
    .innerJoin(users, eq(users.id, userQueues.userId))
    .where(and(eq(userQueues.companyId, companyId), eq(userQueues.queueId, queueId), eq(users.online, true)))
    .orderBy(asc(users.id));
  const time = hhmm(now);
  return rows.filter((u) => (u.startWork <= u.endWork ? time >= u.startWork && time <= u.endWork : time >= u.startWork || time <= u.endWork)).map((u) => u.id);
}

/** `userRandom`: a ticket the bot leaves waiting in a queue goes to one of its online attendants at random. */
export async function assignRandomAttendant(ctx: AppContext, ticket: TicketRow): Promise<void> {
  if (ticket.queueId === null || ticket.userId !== null) return;
  const [settings] = await ctx.db.select({ userRandom: companySettings.userRandom }).from(companySettings).where(eq(companySettings.companyId, ticket.companyId));
  if (settings?.userRandom !== 'enabled') return;
  const candidates = await onlineAttendants(ctx, ticket.companyId, ticket.queueId);
  const chosen = candidates[Math.floor(Math.random() * candidates.length)];
  if (chosen !== undefined) await assignWaiting(ctx, ticket, chosen);
}

/**
 * The router (`ativarRoteador`, every `tempoRoteador` minutes): a pending ticket of the queue
 * that nobody took since its last transition (its latest log, or its creation) goes to the
 * next online attendant after its current one (by id, wrapping round); one without an
 * attendant to the first. Tickets the bot still leads are left alone. Run every minute.
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
      .limit(500);
    if (due.length === 0) continue;
    const attendants = await onlineAttendants(ctx, queue.companyId, queue.id, now);
    for (const ticket of due) {
      const next = attendants.find((id) => ticket.userId === null || id > ticket.userId) ?? attendants[0];
      if (next === undefined || next === ticket.userId) continue;
      if (await assignWaiting(ctx, ticket, next)) moved += 1;
    }
  }
  return moved;
}

/**
 * `DirectTicketsToWallets`: the attendant who served the contact last (their latest closed
 * ticket with an attendant), when that user is still the company's; undefined otherwise.
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
