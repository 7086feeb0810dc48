import { announcementSchema, announcementsPageSchema, createAnnouncementBody, idParam, pageQuery, updateAnnouncementBody } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSuper } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { removeAnnouncementFile, removeAnnouncementMedia, uploadAnnouncementMedia } from './media.js';
import { createAnnouncement, deleteAnnouncement, getAnnouncement, listActiveAnnouncements, pageAnnouncements, updateAnnouncement } from './service.js';

const params = z.object({ id: idParam });

/**
 * Every logged-in user reads the active announcements (the bell); only the super user manages
 * them, drafts (status off) included, so the paged list and the single read are theirs too.
 */
export function registerAnnouncementRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const superOnly = { onRequest: authenticate, preHandler: requireSuper };
  const tags = ['announcements'];

  r.get('/announcements/list', { schema: { tags, response: { 200: z.array(announcementSchema) } }, onRequest: authenticate }, async () =>
    listActiveAnnouncements(ctx),
  );

  r.get('/announcements', { schema: { tags, querystring: pageQuery, response: { 200: announcementsPageSchema } }, ...superOnly }, async (req) =>
    pageAnnouncements(ctx, req.query),
  );

  r.get('/announcements/:id', { schema: { tags, params, response: { 200: announcementSchema } }, ...superOnly }, async (req) => getAnnouncement(ctx, req.params.id));

  r.post('/announcements', { schema: { tags, body: createAnnouncementBody, response: { 200: announcementSchema } }, ...superOnly }, async (req) =>
    createAnnouncement(ctx, req.body),
  );

  r.put('/announcements/:id', { schema: { tags, params, body: updateAnnouncementBody, response: { 200: announcementSchema } }, ...superOnly }, async (req) =>
    updateAnnouncement(ctx, req.params.id, req.body),
  );

  r.delete('/announcements/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...superOnly }, async (req) => {
    const deleted = await deleteAnnouncement(ctx, req.params.id);
    await removeAnnouncementFile(ctx, deleted.mediaPath);
    return {};
  });

  r.post(
    '/announcements/:id/media-upload',
    { schema: { tags, params, consumes: ['multipart/form-data'], response: { 200: announcementSchema } }, ...superOnly },
    async (req) => uploadAnnouncementMedia(ctx, req.params.id, req),
  );

  r.delete('/announcements/:id/media-upload', { schema: { tags, params, response: { 200: announcementSchema } }, ...superOnly }, async (req) =>
    removeAnnouncementMedia(ctx, req.params.id),
  );
}
