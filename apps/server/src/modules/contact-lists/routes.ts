import {
  contactListBody,
  contactListItemPageResponse,
  contactListItemSchema,
  contactListItemsQuery,
  contactListListQuery,
  contactListPageResponse,
  contactListSchema,
  contactListUploadResult,
  createContactListItemBody,
  idParam,
  pageQuery,
  updateContactListItemBody,
} from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requireAdmin, requirePermission } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { createItem, deleteItem, getItem, pageItems, updateItem } from './items.js';
import { allLists, createList, deleteList, getList, pageLists, updateList } from './service.js';
import { uploadItems } from './upload.js';

const params = z.object({ id: idParam });
const done = { 200: z.object({}) };

/** Contact lists and their items (spec 3 §2, §7): admins only; deleting an item also needs contacts-page:deleteContact. */
export function registerContactListRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['contact-lists'];
  const admin = { onRequest: authenticate, preHandler: requireAdmin };

  r.get('/contact-lists', { schema: { tags, querystring: pageQuery, response: { 200: contactListPageResponse } }, ...admin }, async (req) =>
    pageLists(ctx, caller(req), req.query),
  );
  r.get('/contact-lists/list', { schema: { tags, querystring: contactListListQuery, response: { 200: z.array(contactListSchema) } }, ...admin }, async (req) =>
    allLists(ctx, caller(req)),
  );
  r.get('/contact-lists/:id', { schema: { tags, params, response: { 200: contactListSchema } }, ...admin }, async (req) => getList(ctx, caller(req), req.params.id));
  r.post('/contact-lists', { schema: { tags, body: contactListBody, response: { 200: contactListSchema } }, ...admin }, async (req) =>
    createList(ctx, caller(req), req.body),
  );
  r.put('/contact-lists/:id', { schema: { tags, params, body: contactListBody, response: { 200: contactListSchema } }, ...admin }, async (req) =>
    updateList(ctx, caller(req), req.params.id, req.body),
  );
  r.delete('/contact-lists/:id', { schema: { tags, params, response: done }, ...admin }, async (req) => {
    await deleteList(ctx, caller(req), req.params.id);
    return {};
  });
  r.post(
    '/contact-lists/:id/upload',
    { schema: { tags, params, consumes: ['multipart/form-data'], response: { 200: contactListUploadResult } }, ...admin },
    async (req) => uploadItems(ctx, caller(req), req.params.id, req),
  );

  r.get('/contact-list-items', { schema: { tags, querystring: contactListItemsQuery, response: { 200: contactListItemPageResponse } }, ...admin }, async (req) =>
    pageItems(ctx, caller(req), req.query),
  );
  r.get('/contact-list-items/:id', { schema: { tags, params, response: { 200: contactListItemSchema } }, ...admin }, async (req) =>
    getItem(ctx, caller(req), req.params.id),
  );
  r.post('/contact-list-items', { schema: { tags, body: createContactListItemBody, response: { 200: contactListItemSchema } }, ...admin }, async (req) =>
    createItem(ctx, caller(req), req.body),
  );
  r.put(
    '/contact-list-items/:id',
    { schema: { tags, params, body: updateContactListItemBody, response: { 200: contactListItemSchema } }, ...admin },
    async (req) => updateItem(ctx, caller(req), req.params.id, req.body),
  );
  r.delete(
    '/contact-list-items/:id',
    { schema: { tags, params, response: done }, onRequest: authenticate, preHandler: [requireAdmin, requirePermission('contacts-page:deleteContact')] },
    async (req) => {
      await deleteItem(ctx, caller(req), req.params.id);
      return {};
    },
  );
}
