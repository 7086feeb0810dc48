import type { Campaign } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { replaceAttachment } from '../messages/attachment.js';
import { announcedCampaign, setCampaignMedia } from './service.js';

/** `POST /campaigns/{id}/media-upload` (multipart `file`): the attachment sent with the campaign message, of the kinds the schedules accept. */
export async function uploadCampaignMedia(ctx: AppContext, by: AuthUser, id: number, req: FastifyRequest): Promise<Campaign> {
  await replaceAttachment(ctx, by.companyId, req, (media) => setCampaignMedia(ctx, by, id, media));
  return announcedCampaign(ctx, by.companyId, id);
}

/** `DELETE /campaigns/{id}/media-upload`. */
export async function deleteCampaignMedia(ctx: AppContext, by: AuthUser, id: number): Promise<Campaign> {
  const before = await setCampaignMedia(ctx, by, id, null);
  if (before.mediaPath) await ctx.storage.remove(by.companyId, before.mediaPath);
  return announcedCampaign(ctx, by.companyId, id);
}
