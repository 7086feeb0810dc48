import {
  createQuickMessageBody,
  idParam,
  pageQuickMessagesQuery,
  quickMessagePageResponse,
  quickMessageSchema,
  quickMessagesListQuery,
  updateQuickMessageBody,
} from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { removeQuickMessageMedia, uploadQuickMessageMedia } from './media.js';
import {
  createQuickMessage,
  deleteQuickMessage,
  getQuickMessage,
  listUsableQuickMessages,
  pageQuickMessages,
  updateQuickMessage,
} from './service.js';

const params = z.object({ id: idParam });

/** Quick replies (spec 2 §7 Quick messages): the /quick-messages page, and the composer's '/' list. Every user of the company. */
export function registerQuickMessageRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['quick-messages'];
  const auth = { onRequest: authenticate };
  r.get('/quick-messages/list', { schema: { tags, querystring: quickMessagesListQuery, response: { 200: z.array(quickMessageSchema) } }, ...auth }, async (req) =>
    listUsableQuickMessages(ctx, caller(req)),
  );
  r.get('/quick-messages', { schema: { tags, querystring: pageQuickMessagesQuery, response: { 200: quickMessagePageResponse } }, ...auth }, async (req) =>
    pageQuickMessages(ctx, caller(req), req.query),
  );
  r.get('/quick-messages/:id', { schema: { tags, params, response: { 200: quickMessageSchema } }, ...auth }, async (req) =>
    getQuickMessage(ctx, caller(req), req.params.id),
  );
  r.post('/quick-messages', { schema: { tags, body: createQuickMessageBody, response: { 200: quickMessageSchema } }, ...auth }, async (req) =>
    createQuickMessage(ctx, caller(req), req.body),
  );
  r.put('/quick-messages/:id', { schema: { tags, params, body: updateQuickMessageBody, response: { 200: quickMessageSchema } }, ...auth }, async (req) =>
    updateQuickMessage(ctx, caller(req), req.params.id, req.body),
  );
  r.delete('/quick-messages/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...auth }, async (req) => {
    await deleteQuickMessage(ctx, caller(req), req.params.id);
    return {};
  });
  r.post(
    '/quick-messages/:id/media-upload',
    { schema: { tags, params, consumes: ['multipart/form-data'], response: { 200: quickMessageSchema } }, ...auth },
    async (req) => uploadQuickMessageMedia(ctx, caller(req), req.params.id, req),
  );
  r.delete('/quick-messages/:id/media-upload', { schema: { tags, params, response: { 200: quickMessageSchema } }, ...auth }, async (req) =>
    removeQuickMessageMedia(ctx, caller(req), req.params.id),
  );
}
