import { and, eq } from 'drizzle-orm';
import { tickets } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { writeTicketLogs } from '../../tickets/logs.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { ticketChanged } from '../emit.js';

/** The ticket writes of the queue integrations at run time (issue 16, docs/integrations.md). */

/**
 * A human takes over from the integration (it gave up, or its agent ended the conversation): the
 * ticket lets go of it, stays pending in its queue, and the connection's integration no longer
 * takes it (`integration_stopped_at`); a `queue` log entry says so.
 */
export async function handOverFromIntegration(ctx: AppContext, ticket: Pick<TicketRow, 'id' | 'companyId' | 'queueId'>): Promise<void> {
  await ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const [row] = await tx
      .update(tickets)
      .set({ useIntegration: false, integrationId: null, integrationStoppedAt: new Date() })
      .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, ticket.companyId)))
      .returning({ id: tickets.id });
    if (!row) return;
    await writeTicketLogs(tx, [{ companyId: ticket.companyId, ticketId: ticket.id, type: 'queue', queueId: ticket.queueId }]);
    publish(ticketChanged(ctx, ticket.id));
  });
}

/** One failed relay of the customer's message, on the ticket's log (the message itself is stored already). */
export async function logIntegrationFailure(ctx: AppContext, ticket: Pick<TicketRow, 'id' | 'companyId' | 'queueId'>): Promise<void> {
  await writeTicketLogs(ctx.db, [{ companyId: ticket.companyId, ticketId: ticket.id, type: 'integrationFailed', queueId: ticket.queueId }]);
}

/** The ticket's Typebot session (null ends it); `at` is the last exchange, for `typebotExpires`. */
export async function setTypebotSession(ctx: AppContext, ticket: Pick<TicketRow, 'id' | 'companyId'>, sessionId: string | null): Promise<void> {
  await ctx.db
    .update(tickets)
    .set({ typebotSessionId: sessionId, typebotSessionAt: sessionId ? new Date() : null })
    .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, ticket.companyId)));
}
