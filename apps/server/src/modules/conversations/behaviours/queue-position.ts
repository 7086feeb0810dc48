import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import { companySettings, tickets } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { sendConnectionMessage } from './send.js';

/** Where the position goes in `sendQueuePositionMessage`; a message without it gets the position appended. */
export const POSITION_VARIABLE = '{{position}}';

/**
 * `sendQueuePosition`: when the bot leaves a customer waiting in a queue, they are told
 * their place — the tickets of that queue waiting for an attendant that were opened no later than theirs
 * (by id: ids follow creation, and timestamps lose their microseconds on the way to JS).
 */
export async function sendQueuePosition(ctx: AppContext, ticket: Pick<TicketRow, 'id' | 'companyId' | 'queueId'>): Promise<void> {
  if (ticket.queueId === null) return;
  const [settings] = await ctx.db
    .select({ on: companySettings.sendQueuePosition, message: companySettings.sendQueuePositionMessage })
    .from(companySettings)
    .where(eq(companySettings.companyId, ticket.companyId));
  if (settings?.on !== 'enabled' || !settings.message.trim()) return;
  const [row] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(tickets)
    .where(
      and(
        eq(tickets.companyId, ticket.companyId),
        eq(tickets.queueId, ticket.queueId),
        eq(tickets.status, 'pending'),
        isNull(tickets.userId),
        lte(tickets.id, ticket.id),
      ),
    );
  const position = String(row?.n ?? 1);
  const text = settings.message.includes(POSITION_VARIABLE) ? settings.message.replaceAll(POSITION_VARIABLE, position) : `${settings.message} *${position}*`;
  await sendConnectionMessage(ctx, ticket.id, text);
}
