import { and, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import { messages, tags, ticketTags, tickets } from '../../db/schema/index.js';
import type { DomainEvent } from '../../events/types.js';
import type { AppContext } from '../../http/context.js';
import { sendConnectionMessage } from '../conversations/behaviours/send.js';
import { emitTicketUpdate } from '../conversations/emit.js';

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
async function claimMoves(tx: Tx, rule: 'forward' | 'rollback', now: Date, only?: number): Promise<Move[]> {
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

/** Runs one rule: moves the due tickets (one transaction), then greets and announces them. */
async function runRule(ctx: AppContext, rule: 'forward' | 'rollback', now: Date, only?: number): Promise<number> {
  const moved = await ctx.db.transaction(async (tx) => {
    const moves = await claimMoves(tx, rule, now, only);
    for (const m of moves) {
      await tx.delete(ticketTags).where(and(eq(ticketTags.ticketId, m.ticketId), eq(ticketTags.tagId, m.fromId)));
      await tx
        .insert(ticketTags)
        .values({ ticketId: m.ticketId, tagId: m.toId })
        .onConflictDoUpdate({ target: [ticketTags.ticketId, ticketTags.tagId], set: { createdAt: sql`now()` } });
    }
    return moves;
  });
  for (const m of moved) {
    if (rule === 'forward' && m.greeting.trim()) {
      await sendConnectionMessage(ctx, m.ticketId, m.greeting);
      // The new lane's clock starts after our own greeting, which is no answer to the customer.
      await ctx.db
        .update(ticketTags)
        .set({ createdAt: sql`now()` })
        .where(and(eq(ticketTags.ticketId, m.ticketId), eq(ticketTags.tagId, m.toId)));
    }
    await emitTicketUpdate(ctx, m.ticketId);
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
