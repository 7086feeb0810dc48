import {
  contactSchema,
  createTagBody,
  idParam,
  listTagsQuery,
  pageTagsQuery,
  syncTagsBody,
  tagPageResponse,
  tagRefSchema,
  tagSchema,
  updateTagBody,
} from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import {
  addTicketTag,
  clearTicketTags,
  contactTagsOf,
  createTag,
  deleteTag,
  getTag,
  listTags,
  pageTags,
  removeContactTag,
  syncContactTags,
  updateTag,
} from './service.js';

const params = z.object({ id: idParam });
const tagList = z.object({ tags: z.array(tagRefSchema) });

/** Tags, contact tags and ticket tags (spec 2 §7 "Notes, tags"): every user of the company. */
export function registerTagRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tags'];
  const auth = { onRequest: authenticate };

  r.get('/tags/list', { schema: { tags, querystring: listTagsQuery, response: { 200: z.array(tagSchema) } }, ...auth }, async (req) =>
    listTags(ctx, caller(req), req.query.kanban),
  );
  r.get('/tags', { schema: { tags, querystring: pageTagsQuery, response: { 200: tagPageResponse } }, ...auth }, async (req) =>
    pageTags(ctx, caller(req), req.query),
  );
  r.get('/tags/:id', { schema: { tags, params, response: { 200: tagSchema } }, ...auth }, async (req) => getTag(ctx, caller(req), req.params.id));
  r.post('/tags', { schema: { tags, body: createTagBody, response: { 200: tagSchema } }, ...auth }, async (req) => createTag(ctx, caller(req), req.body));
  r.put('/tags/:id', { schema: { tags, params, body: updateTagBody, response: { 200: tagSchema } }, ...auth }, async (req) =>
    updateTag(ctx, caller(req), req.params.id, req.body),
  );
  r.delete('/tags/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...auth }, async (req) => {
    await deleteTag(ctx, caller(req), req.params.id);
    return {};
  });

  r.post('/tags/sync', { schema: { tags, body: syncTagsBody, response: { 200: contactSchema } }, ...auth }, async (req) =>
    syncContactTags(ctx, caller(req), req.body),
  );
  r.get(
    '/contactTags/:contactId',
    { schema: { tags, params: z.object({ contactId: idParam }), response: { 200: tagList } }, ...auth },
    async (req) => contactTagsOf(ctx, caller(req), req.params.contactId),
  );
  r.delete(
    '/tags-contacts/:tagId/:contactId',
    { schema: { tags, params: z.object({ tagId: idParam, contactId: idParam }), response: { 200: z.object({}) } }, ...auth },
    async (req) => {
      await removeContactTag(ctx, caller(req), req.params.tagId, req.params.contactId);
      return {};
    },
  );

  r.put(
    '/ticket-tags/:ticketId/:tagId',
    { schema: { tags, params: z.object({ ticketId: idParam, tagId: idParam }), response: { 200: tagList } }, ...auth },
    async (req) => addTicketTag(ctx, caller(req), req.params.ticketId, req.params.tagId),
  );
  r.delete('/ticket-tags/:ticketId', { schema: { tags, params: z.object({ ticketId: idParam }), response: { 200: tagList } }, ...auth }, async (req) =>
    clearTicketTags(ctx, caller(req), req.params.ticketId),
  );
}
