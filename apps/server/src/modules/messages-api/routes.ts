import { externalSendFields, externalSendResponse } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../http/context.js';
import { readMessageForm } from '../messages/uploads.js';
import { connectionOfToken, sendExternal } from './service.js';
import { TokenCache } from './token-cache.js';

/** Multipart text fields arrive as lists; the API reads the first of each (`body` is the caption). */
const firstValues = (fields: Record<string, string[]>) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0]]));

/**
 * The external messages API (spec 3 §7): other systems send through a connection with
 * its token, without a user session. Rate-limited per token, not per IP: one integration
 * behind many addresses shares one budget, and one address serving many tokens does not.
 */
export function registerMessagesApiRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tokens = new TokenCache(ctx);
  r.post(
    '/api/messages/send',
    {
      schema: {
        tags: ['messages-api'],
        summary: 'Send a message through a connection (JSON, or multipart with `medias`)',
        security: [{ connectionToken: [] }],
        response: { 200: externalSendResponse },
      },
      config: {
        rateLimit: {
          max: ctx.config.rateLimit.messagesApiPerMinute,
          timeWindow: 60_000,
          keyGenerator: (req: FastifyRequest) => `messages-api:${req.headers.authorization ?? req.ip}`,
        },
      },
    },
    // JSON or multipart: the body is read by hand once the token is known (a body schema would refuse the multipart form).
    async (req) => {
      const connection = await connectionOfToken(tokens, req.headers.authorization);
      if (!req.isMultipart()) return sendExternal(ctx, connection, externalSendFields.parse(req.body ?? {}));
      const form = await readMessageForm(req, ctx.storage, ctx.config.uploadLimitBytes);
      return sendExternal(ctx, connection, externalSendFields.parse(firstValues(form.fields)), form.files);
    },
  );
}
