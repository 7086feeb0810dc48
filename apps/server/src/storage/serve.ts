import type { FastifyInstance } from 'fastify';
import { publicFileHeaders, type MediaStorage } from './media.js';

const COMPANY_DIR = /^company(\d+)$/;

/**
 * With a bucket, `/public/company{id}/{file}` streams the object through (the same URL as a
 * local file, the same headers); the static route keeps serving everything else under /public.
 */
export function registerBucketMedia(app: FastifyInstance, storage: MediaStorage): void {
  app.get<{ Params: { dir: string; file: string } }>('/public/:dir/:file', { schema: { hide: true } }, async (req, reply) => {
    const company = COMPANY_DIR.exec(req.params.dir);
    const found = company ? await storage.open(Number(company[1]), req.params.file) : undefined;
    if (!found) return reply.callNotFound();
    reply.headers(publicFileHeaders(req.params.file));
    if (found.length !== undefined) reply.header('content-length', found.length);
    return reply.send(found.body);
  });
}
