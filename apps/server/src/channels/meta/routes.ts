import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cleanRequestStrings, parseCleanJson } from '../../http/clean-input.js';
import { AppError } from '../../http/errors.js';
import type { ChannelSink } from '../sink.js';
import { signatureChecker } from './signature.js';
import { readMetaWebhook } from './webhook.js';

const verifyQuery = z.object({
  'hub.mode': z.string().max(50).optional(),
  'hub.verify_token': z.string().max(500).optional(),
  'hub.challenge': z.string().max(500).optional(),
});

/**
 * The Meta webhook (Messenger + Instagram). Registered in its own encapsulated
 * scope, whose JSON parser keeps the raw bytes: the signature is checked over
 * exactly what Meta signed, before anything is parsed. A sibling of the browser
 * API's scope (http/app.ts): server-to-server, no browser reads the answers, so
 * no security headers, CORS, cookies, compression, multipart or rate limit.
 */
export async function registerWebhookRoutes(app: FastifyInstance, deps: { meta: { appSecret?: string; verifyToken?: string }; sink: ChannelSink }): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    const keepRaw = (_req: unknown, body: Buffer | string, done: (err: null, body: Buffer | string) => void) => done(null, body);
    // What Meta sends, by name: fastify caches a named parser by header, a catch-all parses the header per request.
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, keepRaw);
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, keepRaw);
    // Meta posts at our busiest; a request logs only when refused, so no child logger per request.
    scope.setChildLoggerFactory((logger) => logger);
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const validSignature = deps.meta.appSecret ? signatureChecker(deps.meta.appSecret) : undefined;

    // Subscription handshake: echo hub.challenge (cleaned, as every browser route's strings are) when our VERIFY_TOKEN is presented.
    r.get('/webhook', { schema: { tags: ['webhook'], querystring: verifyQuery }, preValidation: cleanRequestStrings }, async (req, reply) => {
      const q = req.query;
      const expected = deps.meta.verifyToken;
      if (q['hub.mode'] === 'subscribe' && expected && q['hub.verify_token'] === expected && q['hub.challenge'] !== undefined) {
        return reply.type('text/plain').send(q['hub.challenge']);
      }
      throw new AppError('ERR_INVALID_SIGNATURE', 403);
    });

    // Events: signature → shape → stored → 200; processing continues after the answer.
    r.post('/webhook', { schema: { tags: ['webhook'] } }, async (req, reply) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const header = req.headers['x-hub-signature-256'];
      if (typeof header !== 'string' || header.length === 0) throw new AppError('ERR_INVALID_SIGNATURE', 401);
      if (!validSignature) {
        req.log.warn('webhook refused: FACEBOOK_APP_SECRET is not set');
        throw new AppError('ERR_INVALID_SIGNATURE', 403);
      }
      if (!validSignature(raw, header)) throw new AppError('ERR_INVALID_SIGNATURE', 403);

      let json: unknown;
      try {
        json = parseCleanJson(raw.toString('utf8'));
      } catch {
        throw new AppError('ERR_VALIDATION', 400, 'body is not JSON');
      }
      await deps.sink.received('meta', readMetaWebhook(json));
      return reply.type('text/plain').send('EVENT_RECEIVED');
    });
  });
}
