import type { Message } from '@balcao/contracts';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { messages, tickets } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import type { PendingEvent } from '../../../events/bus.js';
import { AppError } from '../../../http/errors.js';
import type { MessageRow } from '../../messages/presenter.js';
import { writeTicketLogs } from '../../tickets/logs.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { messageChanged, ticketChanged } from '../emit.js';
import { sendReadReceipts } from '../read-receipts.js';

/**
 * The message commands an attendant's action runs (the channel's own changes are the
 * inbound commands). Callers check visibility and ownership first; the channel call (an
 * edit or delete on WhatsApp) happens before, so a refusal stores nothing.
 */

/** Runs the writes of a change to one message and answers the message as committed (its `message.updated` event). */
async function changeMessage(ctx: AppContext, messageId: number, write: (tx: DbOrTx, publish: (event: PendingEvent) => void) => Promise<void>): Promise<Message> {
  let presented: Message | undefined;
  await ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    await write(tx, publish);
    publish(messageChanged(ctx, messageId, (message) => (presented = message)));
  });
  if (!presented) throw new AppError('ERR_NO_MESSAGE_FOUND', 404);
  return presented;
}

/** New text and `isEdited`; the ticket's preview follows when it is the last message. Answers the edited message. */
export function editMessageText(ctx: AppContext, message: MessageRow, body: string): Promise<Message> {
  return changeMessage(ctx, message.id, async (tx, publish) => {
    await tx.update(messages).set({ body, isEdited: true }).where(eq(messages.id, message.id));
    const [touched] = await tx
      .update(tickets)
      .set({ lastMessage: body })
      .where(and(eq(tickets.id, message.ticketId), sql`${tickets.lastMessageAt} <= ${message.createdAt}`))
      .returning({ id: tickets.id });
    if (touched) publish(ticketChanged(ctx, message.ticketId));
  });
}

/** Marks a message deleted (the row stays, shown as deleted); an unsent one leaves the outbox. Answers the message. */
export function markMessageDeleted(ctx: AppContext, message: MessageRow): Promise<Message> {
  return changeMessage(ctx, message.id, async (tx) => {
    const unsent = message.sendStatus === 'pending' ? { sendStatus: 'failed' as const, nextAttemptAt: null, lastError: 'deleted before it was sent' } : {};
    await tx
      .update(messages)
      .set({ isDeleted: true, ...unsent })
      .where(eq(messages.id, message.id));
  });
}

/**
 * `userId` read the customer's new messages: unread counter to 0, messages read, one
 * `access` entry, then (in the background) the channel's read receipts for exactly those
 * messages. Nothing unread: nothing is written nor sent. Answers the ids read.
 */
export async function markTicketRead(ctx: AppContext, ticket: TicketRow, userId: number): Promise<number[]> {
  const read = await ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const [changed] = await tx
      .update(tickets)
      .set({ unreadMessages: 0 })
      .where(and(eq(tickets.id, ticket.id), gt(tickets.unreadMessages, 0)))
      .returning({ id: tickets.id });
    if (!changed) return [];
    const rows = await tx
      .update(messages)
      .set({ read: true })
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.read, false)))
      .returning({ id: messages.id });
    await writeTicketLogs(tx, [{ companyId: ticket.companyId, ticketId: ticket.id, type: 'access', userId, queueId: ticket.queueId }]);
    publish({ type: 'ticket.read', ticket });
    return rows.map((m) => m.id);
  });
  if (read.length > 0) ctx.background.run('read receipts', () => sendReadReceipts(ctx, ticket.id, read));
  return read;
}
