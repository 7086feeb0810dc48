import {
  campaignBody,
  campaignIdParams,
  campaignPageResponse,
  campaignReportSchema,
  campaignSchema,
  campaignSettingRowSchema,
  campaignSettingsBody,
  campaignsQuery,
} from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, requireAdmin } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { requirePlanFlag } from '../../http/plan.js';
import { deleteCampaignMedia, uploadCampaignMedia } from './media.js';
import { cancelCampaign, createCampaign, deleteCampaign, getCampaign, pageCampaigns, restartCampaign, updateCampaign } from './service.js';
import { listCampaignSettings, saveCampaignSettings } from './settings.js';

/** Campaigns and their settings (spec 3 §2, §7): admins of a company whose plan has useCampaigns. */
export function registerCampaignRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['campaigns'];
  const guard = { onRequest: authenticate, preHandler: [requireAdmin, requirePlanFlag('useCampaigns')] };
  const params = campaignIdParams;

  r.get('/campaign-settings', { schema: { tags, response: { 200: z.array(campaignSettingRowSchema) } }, ...guard }, async (req) =>
    listCampaignSettings(ctx, caller(req)),
  );
  r.post('/campaign-settings', { schema: { tags, body: campaignSettingsBody, response: { 200: z.array(campaignSettingRowSchema) } }, ...guard }, async (req) =>
    saveCampaignSettings(ctx, caller(req), req.body),
  );

  r.get('/campaigns', { schema: { tags, querystring: campaignsQuery, response: { 200: campaignPageResponse } }, ...guard }, async (req) =>
    pageCampaigns(ctx, caller(req), req.query),
  );
  r.get('/campaigns/:id', { schema: { tags, params, response: { 200: campaignReportSchema } }, ...guard }, async (req) => getCampaign(ctx, caller(req), req.params.id));
  r.post('/campaigns', { schema: { tags, body: campaignBody, response: { 200: campaignSchema } }, ...guard }, async (req) => createCampaign(ctx, caller(req), req.body));
  r.put('/campaigns/:id', { schema: { tags, params, body: campaignBody, response: { 200: campaignSchema } }, ...guard }, async (req) =>
    updateCampaign(ctx, caller(req), req.params.id, req.body),
  );
  r.delete('/campaigns/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...guard }, async (req) => {
    await deleteCampaign(ctx, caller(req), req.params.id);
    return {};
  });
  r.post('/campaigns/:id/cancel', { schema: { tags, params, response: { 200: campaignSchema } }, ...guard }, async (req) =>
    cancelCampaign(ctx, caller(req), req.params.id),
  );
  r.post('/campaigns/:id/restart', { schema: { tags, params, response: { 200: campaignSchema } }, ...guard }, async (req) =>
    restartCampaign(ctx, caller(req), req.params.id),
  );
  r.post(
    '/campaigns/:id/media-upload',
    { schema: { tags, params, consumes: ['multipart/form-data'], response: { 200: campaignSchema } }, ...guard },
    async (req) => uploadCampaignMedia(ctx, caller(req), req.params.id, req),
  );
  r.delete('/campaigns/:id/media-upload', { schema: { tags, params, response: { 200: campaignSchema } }, ...guard }, async (req) =>
    deleteCampaignMedia(ctx, caller(req), req.params.id),
  );
}
