import {
  avatarUploadResponseSchema,
  createUserBody,
  idParam,
  pageQuery,
  ticketsManagerWidthBody,
  updateUserBody,
  userSchema,
  usersPageSchema,
} from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requireAdmin } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { removeStoredImage } from '../../http/uploads.js';
import { uploadAvatar } from './avatar.js';
import { listCompanyUsers, pageUsers } from './queries.js';
import { createUser, deleteUser, getUser, listCompanyFor, setTicketsManagerWidth, updateUser } from './service.js';

const params = z.object({ id: idParam });

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const adminOnly = { onRequest: authenticate, preHandler: requireAdmin };
  const tags = ['users'];

  // The spec calls `GET /users/` (the router ignores the trailing slash). Attendants use it too (the transfer
  // dialog's user search), always within their own company, as `/users/list` already is.
  r.get('/users', { schema: { tags, querystring: pageQuery, response: { 200: usersPageSchema } }, onRequest: authenticate }, async (req) =>
    pageUsers(ctx.db, caller(req).companyId, req.query.searchParam, req.query.pageNumber),
  );

  r.get(
    '/users/list',
    { schema: { tags, querystring: z.object({ companyId: idParam.optional() }), response: { 200: z.array(userSchema) } }, onRequest: authenticate },
    async (req) => listCompanyUsers(ctx.db, listCompanyFor(caller(req), req.query.companyId)),
  );

  r.get('/users/:id', { schema: { tags, params, response: { 200: userSchema } }, onRequest: authenticate }, async (req) =>
    getUser(ctx, caller(req), req.params.id),
  );

  r.post('/users', { schema: { tags, body: createUserBody, response: { 200: userSchema } }, ...adminOnly }, async (req) =>
    createUser(ctx, caller(req), req.body),
  );

  r.put('/users/:id', { schema: { tags, params, body: updateUserBody, response: { 200: userSchema } }, onRequest: authenticate }, async (req) =>
    updateUser(ctx, caller(req), req.params.id, req.body),
  );

  r.delete('/users/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...adminOnly }, async (req) => {
    const by = caller(req);
    const { profileImage } = await deleteUser(ctx, by, req.params.id);
    await removeStoredImage(ctx.storage, `company${by.companyId}`, profileImage);
    return {};
  });

  r.post(
    '/users/:id/media-upload',
    { schema: { tags, params, consumes: ['multipart/form-data'], response: { 200: avatarUploadResponseSchema } }, onRequest: authenticate },
    async (req) => ({ user: await uploadAvatar(ctx, caller(req), req.params.id, req) }),
  );

  r.put(
    '/users/toggleChangeWidht/:id',
    { schema: { tags, params, body: ticketsManagerWidthBody, response: { 200: userSchema } }, onRequest: authenticate },
    async (req) => setTicketsManagerWidth(ctx, caller(req), req.params.id, req.body.defaultTicketsManagerWidth),
  );
}
