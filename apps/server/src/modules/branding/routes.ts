import type { WhitelabelKind } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSuper } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { uploadBrandingImage } from './service.js';

/** Whitelabel image uploads (super user). Colours, app name and userCreation go through `PUT /settings/{key}`. */
export function registerBrandingRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const kind of ['logo', 'login'] as const satisfies readonly WhitelabelKind[]) {
    r.post(
      `/settings-whitelabel/${kind}`,
      {
        schema: { tags: ['branding'], consumes: ['multipart/form-data'], response: { 200: z.string() } },
        onRequest: authenticate,
        preHandler: requireSuper,
      },
      // The bare file name as a JSON string, as clients expect.
      async (req, reply) => reply.type('application/json').send(JSON.stringify(await uploadBrandingImage(ctx, kind, req))),
    );
  }
}
