import { facebookConnectBody, whatsappFormSchema, whatsappListQuery, whatsappSchema } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, permissionGuard, requireSuper } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { connectFacebook } from './facebook.js';
import { removeGreetingMedia, setGreetingMedia } from './media.js';
import { listWhatsapps, presentWhatsapps } from './queries.js';
import { assertCanManage, canManageConnections, connectionFor, createWhatsapp, deleteWhatsapp, presentOne, updateWhatsapp } from './service.js';
import { closeImported, renewWhatsappSession, restartCompanySessions, startWhatsappSession, stopWhatsappSession } from './sessions.js';

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const messageReply = z.object({ message: z.string() });
const tags = ['connections'];

/** Connections (spec 1 §7 "Connections"). Clients call some paths with a trailing slash: the router ignores it. */
export function registerWhatsappRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Connection managers only (admins, allowConnections): refused before the body is validated.
  const managesConnections = permissionGuard(async (req: FastifyRequest) => assertCanManage(ctx, caller(req)));

  r.get(
    '/whatsapp',
    { schema: { tags, querystring: whatsappListQuery, response: { 200: z.array(whatsappSchema) } }, onRequest: authenticate },
    async (req) => {
      const by = caller(req);
      // Only the super user may look at another company's connections (the /allConnections edit dialog).
      const companyId = by.super && req.query.companyId ? req.query.companyId : by.companyId;
      const rows = await listWhatsapps(ctx.db, { companyId, channel: req.query.channel });
      return presentWhatsapps(ctx.db, rows, await canManageConnections(ctx, by));
    },
  );

  r.get(
    '/whatsapp/all',
    { schema: { tags, querystring: whatsappListQuery, response: { 200: z.array(whatsappSchema) } }, onRequest: authenticate, preHandler: requireSuper },
    async () => presentWhatsapps(ctx.db, await listWhatsapps(ctx.db, {}), true, true),
  );

  r.get(
    '/whatsapp/filter',
    { schema: { tags, querystring: whatsappListQuery, response: { 200: z.array(whatsappSchema) } }, onRequest: authenticate },
    async (req) => {
      const by = caller(req);
      const rows = await listWhatsapps(ctx.db, { companyId: by.companyId, channel: req.query.channel });
      return presentWhatsapps(ctx.db, rows, await canManageConnections(ctx, by));
    },
  );

  r.get(
    '/whatsapp/:id',
    { schema: { tags, params: idParams, querystring: whatsappListQuery, response: { 200: whatsappSchema } }, onRequest: authenticate },
    async (req) => {
      const by = caller(req);
      return presentOne(ctx, by, await connectionFor(ctx, by, req.params.id));
    },
  );

  r.post('/whatsapp', { schema: { tags, body: whatsappFormSchema, response: { 200: whatsappSchema } }, onRequest: authenticate, preHandler: managesConnections }, async (req) =>
    createWhatsapp(ctx, caller(req), req.body),
  );

  r.put(
    '/whatsapp/:id',
    { schema: { tags, params: idParams, body: z.record(z.string(), z.unknown()), response: { 200: whatsappSchema } }, onRequest: authenticate, preHandler: managesConnections },
    async (req) => updateWhatsapp(ctx, caller(req), req.params.id, req.body),
  );

  r.delete(
    '/whatsapp/:id',
    { schema: { tags, params: idParams, response: { 200: messageReply } }, onRequest: authenticate },
    async (req) => {
      await deleteWhatsapp(ctx, caller(req), req.params.id);
      return { message: 'Whatsapp deleted.' };
    },
  );

  r.post(
    '/whatsapp/:id/media-upload',
    { schema: { tags, params: idParams, consumes: ['multipart/form-data'], response: { 200: whatsappSchema } }, onRequest: authenticate },
    async (req) => {
      const file = await req.file();
      if (!file || file.fieldname !== 'file') throw new AppError('ERR_VALIDATION', 400, 'multipart field "file" is required');
      const data = await file.toBuffer();
      return setGreetingMedia(ctx, caller(req), req.params.id, { data, mimetype: file.mimetype, filename: file.filename });
    },
  );

  r.delete(
    '/whatsapp/:id/media-upload',
    { schema: { tags, params: idParams, response: { 200: whatsappSchema } }, onRequest: authenticate },
    async (req) => removeGreetingMedia(ctx, caller(req), req.params.id),
  );

  r.post('/whatsappsession/:id', { schema: { tags, params: idParams, response: { 200: messageReply } }, onRequest: authenticate }, async (req) => {
    // The optional body is read after the permission check (authorization before validation).
    await startWhatsappSession(ctx, caller(req), req.params.id, req.body);
    return { message: 'Starting session.' };
  });

  r.put('/whatsappsession/:id', { schema: { tags, params: idParams, response: { 200: messageReply } }, onRequest: authenticate }, async (req) => {
    await renewWhatsappSession(ctx, caller(req), req.params.id);
    return { message: 'Starting session.' };
  });

  r.delete('/whatsappsession/:id', { schema: { tags, params: idParams, response: { 200: messageReply } }, onRequest: authenticate }, async (req) => {
    await stopWhatsappSession(ctx, caller(req), req.params.id);
    return { message: 'Session disconnected.' };
  });

  r.post('/whatsapp-restart', { schema: { tags, response: { 200: messageReply } }, onRequest: authenticate }, async (req) => {
    const n = await restartCompanySessions(ctx, caller(req));
    return { message: `Restarting ${n} connection(s).` };
  });

  r.post('/closedimported/:id', { schema: { tags, params: idParams, response: { 200: messageReply } }, onRequest: authenticate }, async (req) => {
    const n = await closeImported(ctx, caller(req), req.params.id);
    return { message: `${n} imported ticket(s) closed.` };
  });

  r.post(
    '/facebook',
    { schema: { tags, body: facebookConnectBody, response: { 200: z.array(whatsappSchema) } }, onRequest: authenticate, preHandler: managesConnections },
    async (req) => connectFacebook(ctx, caller(req), req.body),
  );
}
