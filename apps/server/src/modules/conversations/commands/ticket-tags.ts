import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { ticketTags } from '../../../db/schema/index.js';
import type { PendingEvent } from '../../../events/bus.js';
import type { AppContext } from '../../../http/context.js';
import { ticketChanged } from '../emit.js';

/**
 * The ticket-tag commands: the only writers of `ticket_tags` (a tag on a ticket is its kanban lane).
 * Callers check the ticket and the tag belong to the company; each change publishes `ticket.updated`
 * once committed. A link's `created_at` is when the ticket entered that lane (lane automation's clock).
 */

type Publish = (event: PendingEvent) => void;

/** Adds a tag to the ticket (idempotent: an existing link keeps its clock). */
export function tagTicket(ctx: AppContext, ticketId: number, tagId: number): Promise<void> {
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    await tx.insert(ticketTags).values({ ticketId, tagId }).onConflictDoNothing();
    publish(ticketChanged(ctx, ticketId));
  });
}

/** Removes every tag of the ticket (the kanban's default lane). */
export function untagTicket(ctx: AppContext, ticketId: number): Promise<void> {
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    await tx.delete(ticketTags).where(eq(ticketTags.ticketId, ticketId));
    publish(ticketChanged(ctx, ticketId));
  });
}

/**
 * Lane automation's move, inside the transaction that claimed it: out of lane `fromId`, into `toId`
 * with the clock starting now (restarted when the ticket was already there).
 */
export async function moveTicketLane(ctx: AppContext, tx: DbOrTx, publish: Publish, move: { ticketId: number; fromId: number; toId: number }): Promise<void> {
  await tx.delete(ticketTags).where(and(eq(ticketTags.ticketId, move.ticketId), eq(ticketTags.tagId, move.fromId)));
  await tx
    .insert(ticketTags)
    .values({ ticketId: move.ticketId, tagId: move.toId })
    .onConflictDoUpdate({ target: [ticketTags.ticketId, ticketTags.tagId], set: { createdAt: sql`now()` } });
  publish(ticketChanged(ctx, move.ticketId));
}

/** Restarts the clock of the ticket's lane `tagId` (after our own greeting, which is no answer to the customer). Nothing shown changes: no event. */
export async function restartLaneClock(db: DbOrTx, ticketId: number, tagId: number): Promise<void> {
  await db.update(ticketTags).set({ createdAt: sql`now()` }).where(and(eq(ticketTags.ticketId, ticketId), eq(ticketTags.tagId, tagId)));
}
