import { and, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { messages, tags, ticketTags, tickets } from '../../db/schema/index.js';
import type { DomainEvent } from '../../events/types.js';
import type { AppContext } from '../../http/context.js';
import { sendConnectionMessage } from '../conversations/behaviours/send.js';
import { moveTicketLane, restartLaneClock } from '../conversations/commands/ticket-tags.js';

/**
 * Lane automation (docs/kanban.md "Lane automation"). A ticket's time in a lane starts when
 * the lane's link was written (`ticket_tags.created_at`). Two rules, one evaluation:
 * - rollback: the lane has `rollbackLaneId` and the customer wrote after the ticket entered
 *   it → the ticket moves to that lane;
 * - forward: the lane has `timeLane` minutes and `nextLaneId`, the ticket entered it at least
 *   `timeLane` minutes ago and nothing was sent to the customer since → it moves to
 *   `nextLaneId`, and `greetingMessageLane` (when set) goes out through the outbox.
 * Only live tickets (pending, open; not groups) move. The state is in the database only, so
 * the minute sweep picks up whatever a restart interrupted; the customer-message hook is
 * just the fast path of the same rollback rule.
 */

const BATCH = 500;
const next = alias(tags, 'next_lane');

interface Move {
  ticketId: number;
  fromId: number;
  toId: number;
  greeting: string;
}

const live = and(sql`${tickets.status} in ('pending', 'open')`, eq(tickets.isGroup, false));
const wroteSinceEntry = (fromMe: boolean) =>
  sql`exists (select 1 from ${messages} where ${messages.ticketId} = ${ticketTags.ticketId}
    and ${messages.fromMe} = ${fromMe} and not ${messages.isPrivate} and ${messages.createdAt} >= ${ticketTags.createdAt})`;

/** The moves due now, each claimed (row lock on its link, skipped by a concurrent sweep) inside `tx`. */
async function claimMoves(tx: DbOrTx, rule: 'forward' | 'rollback', now: Date, only?: number): Promise<Move[]> {
  const target = rule === 'forward' ? tags.nextLaneId : tags.rollbackLaneId;
  const due: SQL =
    rule === 'forward'
      ? sql`${tags.timeLane} > 0 and ${ticketTags.createdAt} <= ${now.toISOString()}::timestamptz - make_interval(mins => ${tags.timeLane}) and not ${wroteSinceEntry(true)}`
      : wroteSinceEntry(false);
  return tx
    .select({ ticketId: ticketTags.ticketId, fromId: ticketTags.tagId, toId: next.id, greeting: tags.greetingMessageLane })
    .from(ticketTags)
    .innerJoin(tags, eq(tags.id, ticketTags.tagId))
    // The target must still be a lane of the same company (a deleted lane leaves a dangling id).
    .innerJoin(next, and(eq(next.id, target), eq(next.companyId, tags.companyId), eq(next.kanban, 1)))
    .innerJoin(tickets, eq(tickets.id, ticketTags.ticketId))
    .where(and(eq(tags.kanban, 1), only === undefined ? undefined : eq(ticketTags.ticketId, only), live, due))
    .limit(BATCH)
    .for('update', { of: ticketTags, skipLocked: true });
}

/** Runs one rule: moves the due tickets (one transaction, each move announced once committed), then greets them. */
async function runRule(ctx: AppContext, rule: 'forward' | 'rollback', now: Date, only?: number): Promise<number> {
  const moved = await ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const moves = await claimMoves(tx, rule, now, only);
    for (const m of moves) await moveTicketLane(ctx, tx, publish, m);
    return moves;
  });
  for (const m of moved) {
    if (rule === 'forward' && m.greeting.trim()) {
      await sendConnectionMessage(ctx, m.ticketId, m.greeting);
      await restartLaneClock(ctx.db, m.ticketId, m.toId);
    }
  }
  return moved.length;
}

/** The minute sweep: rollbacks first (a customer who wrote is no longer waiting), then forward moves. */
export async function runLaneAutomation(ctx: AppContext, now = new Date()): Promise<{ rolledBack: number; forwarded: number }> {
  const rolledBack = await runRule(ctx, 'rollback', now);
  const forwarded = await runRule(ctx, 'forward', now);
  return { rolledBack, forwarded };
}

/** The fast path: a customer message returns its ticket to the rollback lane right away. */
export function laneRollbackOnCustomerMessage(ctx: AppContext) {
  return (event: DomainEvent): void => {
    // Only a ticket on a lane (a tag) can roll back: untagged tickets cost no query.
    if (event.type !== 'message.created' || event.message.fromMe || event.ticket.tags.length === 0) return;
    const ticketId = event.ticket.id;
    ctx.background.run('kanban lane rollback', () => runRule(ctx, 'rollback', new Date(), ticketId));
  };
}
