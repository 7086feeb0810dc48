import { fileListPageResponse, fileListSchema, idParam, pageFileListsQuery, saveFileListBody } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requireAdmin } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { createFileList, deleteFileList, getFileList, pageFileLists, updateFileList } from './service.js';
import { uploadFileListFiles } from './upload.js';

const params = z.object({ id: idParam });

/** File lists (spec 3 §2 "File lists page", §7): the company's admins. */
export function registerFileListRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['files'];
  const adminOnly = { onRequest: authenticate, preHandler: requireAdmin };

  r.get('/files', { schema: { tags, querystring: pageFileListsQuery, response: { 200: fileListPageResponse } }, ...adminOnly }, async (req) =>
    pageFileLists(ctx, caller(req), req.query),
  );
  r.get('/files/:id', { schema: { tags, params, response: { 200: fileListSchema } }, ...adminOnly }, async (req) => getFileList(ctx, caller(req), req.params.id));
  r.post('/files', { schema: { tags, body: saveFileListBody, response: { 200: fileListSchema } }, ...adminOnly }, async (req) =>
    createFileList(ctx, caller(req), req.body),
  );
  r.put('/files/:id', { schema: { tags, params, body: saveFileListBody, response: { 200: fileListSchema } }, ...adminOnly }, async (req) =>
    updateFileList(ctx, caller(req), req.params.id, req.body),
  );
  r.delete('/files/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...adminOnly }, async (req) => {
    await deleteFileList(ctx, caller(req), req.params.id);
    return {};
  });
  r.post('/files/uploadList/:id', { schema: { tags, params, consumes: ['multipart/form-data'], response: { 200: fileListSchema } }, ...adminOnly }, async (req) =>
    uploadFileListFiles(ctx, caller(req), req.params.id, req),
  );
}
