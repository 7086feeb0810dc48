import { companySettingOneQuery, companySettingsSchema, publicSettingsSchema, settingSchema, updateCompanySettingBody, updateSettingBody } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requireAdmin, requireSuper } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import {
  companySettingOne,
  companySettingsOf,
  getSetting,
  listGlobalSettings,
  publicSettings,
  publicSettingValue,
  updateCompanySetting,
  updateGlobalSetting,
} from './service.js';

const keyParams = z.object({ key: z.string().min(1).max(100) });

export function registerSettingsRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/public-settings', { schema: { tags: ['settings'], response: { 200: publicSettingsSchema } } }, async () => publicSettings(ctx));

  r.get(
    '/public-settings/:key',
    { schema: { tags: ['settings'], params: keyParams, response: { 200: z.string().nullable() } } },
    async (req, reply) => {
      const value = await publicSettingValue(ctx, req.params.key);
      // A bare JSON value (string or null), as clients expect.
      return reply.type('application/json').send(JSON.stringify(value));
    },
  );

  r.get('/settings', { schema: { tags: ['settings'], response: { 200: z.array(settingSchema) } }, onRequest: authenticate }, async (req) =>
    listGlobalSettings(ctx, caller(req)),
  );

  r.get(
    '/setting/:key',
    { schema: { tags: ['settings'], params: keyParams, response: { 200: settingSchema } }, onRequest: authenticate },
    async (req) => getSetting(ctx, caller(req), req.params.key),
  );

  r.put(
    '/settings/:key',
    { schema: { tags: ['settings'], params: keyParams, body: updateSettingBody, response: { 200: settingSchema } }, onRequest: authenticate, preHandler: requireSuper },
    async (req) => updateGlobalSetting(ctx, caller(req), req.params.key, req.body.value),
  );

  r.get(
    '/companySettings/:companyId',
    {
      schema: { tags: ['settings'], params: z.object({ companyId: z.coerce.number().int().positive() }), response: { 200: companySettingsSchema } },
      onRequest: authenticate,
    },
    async (req) => companySettingsOf(ctx, caller(req), req.params.companyId),
  );

  r.get(
    '/companySettingOne',
    {
      schema: { tags: ['settings'], querystring: companySettingOneQuery, response: { 200: z.record(z.string(), z.string()) } },
      onRequest: authenticate,
    },
    async (req) => companySettingOne(ctx, caller(req), req.query.column),
  );

  r.put(
    '/companySettings',
    {
      schema: { tags: ['settings'], body: updateCompanySettingBody, response: { 200: companySettingsSchema } },
      onRequest: authenticate,
      preHandler: requireAdmin,
    },
    async (req) => updateCompanySetting(ctx, caller(req), req.body),
  );
}
