import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { tickets, whatsapps } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { markClosed } from '../../tickets/service.js';
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
 * - NPS: a ticket waiting for its rating longer than `expiresTicketNPS` closes.
 */
export async function runTicketTimers(ctx: AppContext, now = new Date()): Promise<{ inactive: number; expired: number; npsExpired: number }> {
  const connections = await ctx.db
    .select()
    .from(whatsapps)
    .where(sql`${whatsapps.expiresTicket} > 0 OR ${whatsapps.timeInactiveMessage} > 0 OR ${whatsapps.expiresTicketNPS} > 0`);
  const totals = { inactive: 0, expired: 0, npsExpired: 0 };
  for (const c of connections) {
    totals.inactive += await sendInactivityMessages(ctx, c, now);
    totals.expired += await expireTickets(ctx, c, now);
    totals.npsExpired += await expireRatings(ctx, c, now);
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
