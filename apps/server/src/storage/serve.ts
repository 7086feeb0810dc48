import type { FastifyInstance } from 'fastify';
import { publicFileHeaders, type MediaStorage } from './media.js';

/**
 * With a bucket, `/public/{key}` streams the stored file through (the same URL as a local
 * file, the same headers, no sign-in as for the static folder: names are unguessable), from
 * the bucket or, for files written before it was set, from the folder. The server's
 * built-in images keep their own, more specific `/public/app/` route.
 */
export function registerBucketMedia(app: FastifyInstance, storage: MediaStorage): void {
  app.get<{ Params: { '*': string } }>('/public/*', { schema: { hide: true } }, async (req, reply) => {
    const key = req.params['*'];
    const found = await storage.open(key);
    if (!found) return reply.callNotFound();
    reply.headers(publicFileHeaders(key));
    // A stored name is never reused, so the browser may keep it; `private` keeps shared caches
    // from holding files a company later deletes. Each request spared is a trip to the bucket.
    reply.header('cache-control', 'private, max-age=86400, immutable');
    if (found.length !== undefined) reply.header('content-length', found.length);
    return reply.send(found.body);
  });
}
