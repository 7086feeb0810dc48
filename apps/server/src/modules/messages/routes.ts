import { editMessageBody, forwardMessageBody, idParam, listMessagesQuery, listMessagesResponse, messageSchema, sendMessageBody } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { deleteMessage, editMessage } from './changes.js';
import { forwardMessage } from './forward.js';
import { listMessages, sendMessage, sendMedia } from './service.js';
import { readMessageForm } from './uploads.js';

/** A ticket id or uuid. */
const ticketParams = z.object({ ticketId: z.string().min(1).max(64) });

/** The conversation: its pages, sending (text, note, card, files), edit, delete and forward (spec 2 §7 Messages). */
export function registerMessageRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['messages'];

  r.get(
    '/messages/:ticketId',
    { schema: { tags, params: ticketParams, querystring: listMessagesQuery, response: { 200: listMessagesResponse } }, onRequest: authenticate },
    async (req) => listMessages(ctx, caller(req), req.params.ticketId, req.query.pageNumber),
  );

  // JSON or multipart: the body is read by hand (a body schema would refuse the multipart form).
  r.post(
    '/messages/:ticketId',
    { schema: { tags, params: ticketParams, response: { 200: messageSchema } }, onRequest: authenticate },
    async (req) =>
      req.isMultipart()
        ? sendMedia(ctx, caller(req), req.params.ticketId, () => readMessageForm(req, ctx.storage, ctx.config.uploadLimitBytes))
        : sendMessage(ctx, caller(req), req.params.ticketId, sendMessageBody.parse(req.body ?? {})),
  );

  r.post(
    '/messages/edit/:messageId',
    { schema: { tags, params: z.object({ messageId: idParam }), body: editMessageBody, response: { 200: messageSchema } }, onRequest: authenticate },
    async (req) => editMessage(ctx, caller(req), req.params.messageId, req.body.body),
  );

  r.delete('/messages/:id', { schema: { tags, params: z.object({ id: idParam }), response: { 200: messageSchema } }, onRequest: authenticate }, async (req) =>
    deleteMessage(ctx, caller(req), req.params.id),
  );

  r.post('/message/forward', { schema: { tags, body: forwardMessageBody, response: { 200: messageSchema } }, onRequest: authenticate }, async (req) =>
    forwardMessage(ctx, caller(req), req.body),
  );
}
