import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { ticketLogs, tickets, whatsapps } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { markClosed } from '../commands/tickets.js';
import { writeTicketLogs } from '../../tickets/logs.js';
import { emitTicketUpdate } from '../emit.js';
import type { Connection } from '../../../channels/adapter.js';
import { sendConnectionMessage } from './send.js';

const minutesAgo = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000);
const LIVE = ['open', 'pending'] as const;

/**
 * The time-driven connection behaviours, run every minute by the job queue:
 * - inactivity: after `timeInactiveMessage` minutes without an answer to our last
 *   message, `inactiveMessage` goes out once (a customer message re-arms it);
 * - expiry: after `expiresTicket` minutes since the last message, the ticket closes
 *   with `expiresInactiveMessage`; `whenExpiresTicket` '1' counts only when the last
 *   message was ours (the customer stopped answering), '0' whoever wrote last;
 * - NPS: a ticket waiting for its rating longer than `expiresTicketNPS` closes;
 * - redirection: a pending ticket nobody accepted for `timeSendQueue` minutes moves to
 *   the `sendIdQueue` queue, logged `redirect`.
 */
export async function runTicketTimers(ctx: AppContext, now = new Date()): Promise<{ inactive: number; expired: number; npsExpired: number; redirected: number }> {
  const connections = await ctx.db
    .select()
    .from(whatsapps)
    .where(
      sql`${whatsapps.expiresTicket} > 0 OR ${whatsapps.timeInactiveMessage} > 0 OR ${whatsapps.expiresTicketNPS} > 0 OR (${whatsapps.timeSendQueue} > 0 AND ${whatsapps.sendIdQueue} IS NOT NULL)`,
    );
  const totals = { inactive: 0, expired: 0, npsExpired: 0, redirected: 0 };
  for (const c of connections) {
    totals.inactive += await sendInactivityMessages(ctx, c, now);
    totals.expired += await expireTickets(ctx, c, now);
    totals.npsExpired += await expireRatings(ctx, c, now);
    totals.redirected += await redirectWaitingTickets(ctx, c, now);
  }
  return totals;
}

async function sendInactivityMessages(ctx: AppContext, c: Connection, now: Date): Promise<number> {
  if (c.timeInactiveMessage <= 0 || !c.inactiveMessage.trim()) return 0;
  const due = await ctx.db
    .update(tickets)
    .set({ inactiveMessageSentAt: now })
    .where(
      and(
        eq(tickets.whatsappId, c.id),
        inArray(tickets.status, [...LIVE]),
        eq(tickets.isGroup, false),
        eq(tickets.lastMessageFromMe, true),
        isNull(tickets.inactiveMessageSentAt),
        lt(tickets.lastMessageAt, minutesAgo(now, c.timeInactiveMessage)),
      ),
    )
    .returning({ id: tickets.id });
  for (const t of due) await sendConnectionMessage(ctx, t.id, c.inactiveMessage);
  return due.length;
}

async function expireTickets(ctx: AppContext, c: Connection, now: Date): Promise<number> {
  if (c.expiresTicket <= 0) return 0;
  const conditions = [
    eq(tickets.whatsappId, c.id),
    inArray(tickets.status, [...LIVE]),
    eq(tickets.isGroup, false),
    lt(tickets.lastMessageAt, minutesAgo(now, c.expiresTicket)),
  ];
  if (c.whenExpiresTicket === '1') conditions.push(eq(tickets.lastMessageFromMe, true));
  const due = await ctx.db.select({ id: tickets.id }).from(tickets).where(and(...conditions)).limit(500);
  for (const t of due) {
    if (c.expiresInactiveMessage.trim()) await sendConnectionMessage(ctx, t.id, c.expiresInactiveMessage);
    await markClosed(ctx, t.id);
  }
  return due.length;
}

async function expireRatings(ctx: AppContext, c: Connection, now: Date): Promise<number> {
  if (c.expiresTicketNPS <= 0) return 0;
  const due = await ctx.db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.whatsappId, c.id), eq(tickets.status, 'nps'), lt(tickets.ratingRequestedAt, minutesAgo(now, c.expiresTicketNPS))))
    .limit(500);
  for (const t of due) await markClosed(ctx, t.id);
  return due.length;
}

/**
 * The waiting starts at the ticket's last transition (its latest log: created, chatbot
 * queue, returned, transferred, redirected) or its creation, so a customer writing again
 * does not keep it in a queue nobody answers. Moved once: it is then in `sendIdQueue`.
 */
async function redirectWaitingTickets(ctx: AppContext, c: Connection, now: Date): Promise<number> {
  const to = c.sendIdQueue;
  if (c.timeSendQueue <= 0 || to === null) return 0;
  const cutoff = minutesAgo(now, c.timeSendQueue);
  const lastChange = sql`coalesce((select max(${ticketLogs.createdAt}) from ${ticketLogs} where ${ticketLogs.ticketId} = ${tickets.id}), ${tickets.createdAt})`;
  const moved = await ctx.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: tickets.id, companyId: tickets.companyId, queueId: tickets.queueId })
      .from(tickets)
      .where(and(eq(tickets.whatsappId, c.id), eq(tickets.status, 'pending'), isNull(tickets.userId), sql`${tickets.queueId} IS DISTINCT FROM ${to}`, sql`${lastChange} < ${cutoff}`))
      .limit(500)
      .for('update', { skipLocked: true });
    if (due.length === 0) return due;
    await tx.update(tickets).set({ queueId: to }).where(inArray(tickets.id, due.map((r) => r.id)));
    await writeTicketLogs(tx, due.map((r) => ({ companyId: r.companyId, ticketId: r.id, type: 'redirect' as const, queueId: to })));
    return due;
  });
  // `previous`: the users of the queue it left drop it from their lists.
  for (const r of moved) await emitTicketUpdate(ctx, r.id, { userId: null, queueId: r.queueId, status: 'pending' });
  return moved.length;
}
