import { chatBody, chatMessageBody, chatMessageSchema, chatMessagesPageSchema, chatReadBody, chatSchema, chatsPageSchema, idParam, pageQuery } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { requirePlanFlag } from '../../http/plan.js';
import { sendChatMedia, serveChatMedia } from './media.js';
import { createChat, deleteChat, getChat, pageChatMessages, pageChats, readChat, sendChatMessage, updateChat } from './service.js';

const params = z.object({ id: idParam });
/** GET /chats/{id} also takes the chat's uuid (the web app's /chats/{uuid}). */
const refParams = z.object({ id: z.union([z.uuid(), idParam]) });
const messagesQuery = pageQuery.pick({ pageNumber: true });

/** Internal chat (spec 3 §7): plan flag useInternalChat; every route sees only the caller's own chats. */
export function registerChatRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['chats'];
  const guard = { onRequest: authenticate, preHandler: requirePlanFlag('useInternalChat') };

  r.get('/chats', { schema: { tags, querystring: pageQuery, response: { 200: chatsPageSchema } }, ...guard }, async (req) =>
    pageChats(ctx, caller(req), req.query),
  );
  r.get('/chats/:id', { schema: { tags, params: refParams, response: { 200: chatSchema } }, ...guard }, async (req) =>
    getChat(ctx, caller(req), req.params.id),
  );
  r.post('/chats', { schema: { tags, body: chatBody, response: { 200: chatSchema } }, ...guard }, async (req) => createChat(ctx, caller(req), req.body));
  r.put('/chats/:id', { schema: { tags, params, body: chatBody, response: { 200: chatSchema } }, ...guard }, async (req) =>
    updateChat(ctx, caller(req), req.params.id, req.body),
  );
  r.delete('/chats/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...guard }, async (req) => {
    await deleteChat(ctx, caller(req), req.params.id);
    return {};
  });
  r.post('/chats/:id/read', { schema: { tags, params, body: chatReadBody.optional(), response: { 200: chatSchema } }, ...guard }, async (req) =>
    readChat(ctx, caller(req), req.params.id, req.body?.userId),
  );
  r.get('/chats/:id/messages', { schema: { tags, params, querystring: messagesQuery, response: { 200: chatMessagesPageSchema } }, ...guard }, async (req) =>
    pageChatMessages(ctx, caller(req), req.params.id, req.query.pageNumber),
  );
  // JSON { message } or multipart (`medias` + `message`): the body is read by hand (a body schema would refuse the form).
  r.post('/chats/:id/messages', { schema: { tags, params, response: { 200: chatMessageSchema } }, ...guard }, async (req) =>
    req.isMultipart()
      ? sendChatMedia(ctx, caller(req), req.params.id, req)
      : sendChatMessage(ctx, caller(req), req.params.id, chatMessageBody.parse(req.body ?? {}).message),
  );
  r.get('/chats/:id/messages/:messageId/media', { schema: { tags, params: params.extend({ messageId: idParam }) }, ...guard }, async (req, reply) =>
    serveChatMedia(ctx, caller(req), req.params.id, req.params.messageId, reply),
  );
}
