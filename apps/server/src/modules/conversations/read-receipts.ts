import { and, eq, inArray } from 'drizzle-orm';
import { messages } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { channelTarget } from './outbound.js';

/**
 * An attendant opened the conversation: the customer's messages just marked read get
 * their read receipts on channels that have them (WhatsApp's blue ticks). Best effort:
 * a disconnected session only loses the ticks.
 */
export async function sendReadReceipts(ctx: AppContext, ticketId: number, messageIds: number[]): Promise<void> {
  if (messageIds.length === 0) return;
  const { connection, to } = await channelTarget(ctx, ticketId);
  const adapter = ctx.channels.adapterFor(connection.channel);
  if (!adapter.markRead) return;
  const rows = await ctx.db
    .select({ wid: messages.wid, data: messages.data })
    .from(messages)
    .where(and(inArray(messages.id, messageIds), eq(messages.fromMe, false)));
  const read = rows.flatMap((r) => (r.wid ? [{ wid: r.wid, participant: (r.data as { key?: { participant?: string | null } } | null)?.key?.participant }] : []));
  if (read.length) await adapter.markRead(connection, to, read);
}
