import { MESSAGE_EDIT_WINDOW_MS, type ErrorCode, type Message } from '@balcao/contracts';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import type { ChannelAdapter, Connection, Recipient } from '../../channels/adapter.js';
import { editMessageText, markMessageDeleted } from '../conversations/commands/messages.js';
import { channelTarget } from '../conversations/outbound.js';
import { loadViewer } from '../tickets/visibility.js';
import { visibleMessage } from './access.js';
import type { MessageRow } from './presenter.js';
import { loadMessage } from './queries.js';

/** Only our own side's messages change; the customer's never. */
function assertOwn(message: MessageRow): void {
  if (!message.fromMe) throw new AppError('ERR_NO_PERMISSION', 403);
}

/**
 * `POST /messages/edit/{messageId}`: the text of an own text message, within 15 minutes of
 * its creation. WhatsApp receives the edit; Messenger and Instagram have none (stored only).
 */
export async function editMessage(ctx: AppContext, auth: AuthUser, id: number, body: string): Promise<Message> {
  const { message } = await visibleMessage(ctx.db, await loadViewer(ctx.db, auth), id);
  assertOwn(message);
  if (message.isDeleted) throw new AppError('ERR_NO_MESSAGE_FOUND', 404);
  if (message.mediaType !== 'chat') throw new AppError('ERR_VALIDATION', 400, 'only text messages can be edited');
  if (Date.now() - message.createdAt.getTime() > MESSAGE_EDIT_WINDOW_MS) throw new AppError('ERR_EDIT_WINDOW_EXPIRED', 400);
  if (body.trim() === '') throw new AppError('ERR_EMPTY_MESSAGE', 400);

  await onChannel(ctx, message, 'ERR_EDIT_WAPP_MSG', (adapter, connection, to, wid) => adapter.edit?.(connection, to, wid, body));
  return editMessageText(ctx, message, body);
}

/**
 * `DELETE /messages/{id}`: an own message is marked deleted (the row stays, shown as deleted)
 * and deleted for everyone on WhatsApp; an unsent one is taken out of the outbox.
 */
export async function deleteMessage(ctx: AppContext, auth: AuthUser, id: number): Promise<Message> {
  const { message } = await visibleMessage(ctx.db, await loadViewer(ctx.db, auth), id);
  assertOwn(message);
  if (message.isDeleted) return (await loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, message.id))!;
  await onChannel(ctx, message, 'ERR_DELETE_WAPP_MSG', (adapter, connection, to, wid) => adapter.delete?.(connection, to, wid));
  return markMessageDeleted(ctx, message);
}

/**
 * Runs an edit or delete on the channel for a message the channel has (sent by us, or from the phone);
 * notes and unsent rows stay local. The channel refusing it (disconnected, too old…) → 400 and nothing stored.
 */
async function onChannel(
  ctx: AppContext,
  message: MessageRow,
  code: ErrorCode,
  run: (adapter: ChannelAdapter, connection: Connection, to: Recipient, wid: string) => Promise<void> | undefined,
): Promise<void> {
  if (message.isPrivate || !message.wid || message.sendStatus === 'pending' || message.sendStatus === 'failed') return;
  try {
    const { connection, to } = await channelTarget(ctx, message.ticketId);
    await run(ctx.channels.adapterFor(connection.channel), connection, to, message.wid);
  } catch (err) {
    ctx.log.warn({ err, messageId: message.id }, 'channel refused the change');
    throw new AppError(code, 400, err instanceof Error ? err.message : undefined);
  }
}
