import { CHAT_MEDIA_MAX_BYTES, chatMediaFields, type ChatMessage } from '@balcao/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, isNotNull } from 'drizzle-orm';
import { chatMessages } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { publicFileHeaders } from '../../storage/media.js';
import { mediaTypeOf, readMessageForm } from '../messages/uploads.js';
import { memberChat, sendChatMessage } from './service.js';

/**
 * Multipart `POST /chats/{id}/messages`: one file in `medias` (as the ticket messages), an optional
 * `message`. Membership is checked before the upload is read; the file is type-checked like a
 * ticket attachment (no programs, no active content) and limited to CHAT_MEDIA_MAX_BYTES.
 */
export async function sendChatMedia(ctx: AppContext, user: AuthUser, id: number, req: FastifyRequest): Promise<ChatMessage> {
  await memberChat(ctx.db, user, id);
  const form = await readMessageForm(req, ctx.storage, CHAT_MEDIA_MAX_BYTES);
  const { message } = chatMediaFields.parse({ message: form.fields.message?.[0] });
  const [file, ...more] = form.files;
  if (!file) throw new AppError('ERR_EMPTY_MESSAGE', 400);
  if (more.length > 0) throw new AppError('ERR_VALIDATION', 400, 'medias: one file per message', [{ path: 'medias', message: 'One file per message' }]);
  mediaTypeOf(file);
  const saved = await ctx.storage.save(user.companyId, file.data, file.mimetype, file.originalName);
  try {
    return await sendChatMessage(ctx, user, id, message, { path: saved.fileName, name: file.originalName || saved.fileName, mimetype: saved.mimetype });
  } catch (err) {
    // Left the chat meanwhile, or another refusal: the file goes too.
    await ctx.storage.remove(user.companyId, saved.fileName);
    throw err;
  }
}

/**
 * `GET /chats/{id}/messages/{messageId}/media`: the file, to the chat's members only (others 404).
 * It is stored in the company's media folder under a random name that the API never gives out.
 */
export async function serveChatMedia(ctx: AppContext, user: AuthUser, id: number, messageId: number, reply: FastifyReply): Promise<FastifyReply> {
  await memberChat(ctx.db, user, id);
  const [row] = await ctx.db
    .select({ path: chatMessages.mediaPath, name: chatMessages.mediaName })
    .from(chatMessages)
    .where(and(eq(chatMessages.id, messageId), eq(chatMessages.chatId, id), isNotNull(chatMessages.mediaPath)));
  const file = row && (await ctx.storage.open(ctx.storage.companyKey(user.companyId, row.path!)));
  if (!file) throw new AppError('ERR_NO_CHAT_FOUND', 404);
  const headers = publicFileHeaders(row.path!);
  // The original name for a download; images, audio and video stay inline (publicFileHeaders).
  if (headers['Content-Disposition']) headers['Content-Disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(row.name ?? row.path!)}`;
  reply.headers({ ...headers, 'Cache-Control': 'private, max-age=3600' });
  if (file.length !== undefined) reply.header('Content-Length', file.length);
  return reply.send(file.body);
}
