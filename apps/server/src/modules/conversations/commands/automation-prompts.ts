import { and, eq, isNull } from 'drizzle-orm';
import { messages, tickets } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { writeTicketLogs } from '../../tickets/logs.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { messageChanged, ticketChanged } from '../emit.js';

/** The AI prompt step's ticket writes (behaviours/prompt.ts, docs/prompts.md). */

/**
 * The prompt stops answering and the ticket waits, pending, in the prompt's queue for a
 * person: a `queue` log entry names that queue. Only a pending ticket nobody took moves;
 * false when someone took it meanwhile or it was already handed over.
 */
export async function handPromptTicketToQueue(ctx: AppContext, ticket: TicketRow, queueId: number): Promise<boolean> {
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const [row] = await tx
      .update(tickets)
      .set({ queueId, promptHandedOverAt: new Date() })
      .where(
        and(
          eq(tickets.id, ticket.id),
          eq(tickets.companyId, ticket.companyId),
          eq(tickets.status, 'pending'),
          isNull(tickets.userId),
          isNull(tickets.promptHandedOverAt),
        ),
      )
      .returning({ id: tickets.id });
    if (!row) return false;
    await writeTicketLogs(tx, [{ companyId: ticket.companyId, ticketId: ticket.id, type: 'queue', queueId }]);
    publish(ticketChanged(ctx, ticket.id, { userId: ticket.userId, queueId: ticket.queueId, status: ticket.status }));
    return true;
  });
}

/** A reopened ticket gets the prompt again. */
export async function clearPromptHandOver(ctx: AppContext, ticket: TicketRow): Promise<void> {
  await ctx.db
    .update(tickets)
    .set({ promptHandedOverAt: null })
    .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, ticket.companyId)));
}

/** A customer's audio gets its transcript as text (attendants who take over read it); a caption already there stays. */
export async function recordAudioTranscript(ctx: AppContext, companyId: number, messageId: number, transcript: string): Promise<void> {
  await ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const [row] = await tx
      .update(messages)
      .set({ body: transcript })
      .where(and(eq(messages.id, messageId), eq(messages.companyId, companyId), eq(messages.body, '')))
      .returning({ id: messages.id });
    if (row) publish(messageChanged(ctx, messageId));
  });
}
