import { SCHEDULE_ATTACHMENT_EXTENSIONS, type Campaign } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import { extname } from 'node:path';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { mediaTypeOf, readMessageForm } from '../messages/uploads.js';
import { announcedCampaign, setCampaignMedia } from './service.js';

const ACCEPTED = new Set<string>(SCHEDULE_ATTACHMENT_EXTENSIONS.map((ext) => `.${ext}`));

/** `POST /campaigns/{id}/media-upload` (multipart `file`): the attachment sent with the campaign message, of the kinds the schedules accept. */
export async function uploadCampaignMedia(ctx: AppContext, by: AuthUser, id: number, req: FastifyRequest): Promise<Campaign> {
  const form = await readMessageForm(req, ctx.storage, ctx.config.uploadLimitBytes);
  const [file] = form.files;
  if (!file || form.files.length > 1) throw new AppError('ERR_VALIDATION', 400, 'send exactly one file');
  if (!ACCEPTED.has(extname(file.originalName).toLowerCase())) {
    throw new AppError('ERR_INVALID_MEDIA_TYPE', 400, `accepted: ${SCHEDULE_ATTACHMENT_EXTENSIONS.join(', ')}`);
  }
  mediaTypeOf(file);
  const saved = await ctx.storage.save(by.companyId, file.data, file.mimetype, file.originalName);
  let before;
  try {
    before = await setCampaignMedia(ctx, by, id, { mediaPath: saved.fileName, mediaName: file.originalName.slice(0, 255) });
  } catch (err) {
    await ctx.storage.remove(by.companyId, saved.fileName);
    throw err;
  }
  if (before.mediaPath) await ctx.storage.remove(by.companyId, before.mediaPath);
  return announcedCampaign(ctx, by.companyId, id);
}

/** `DELETE /campaigns/{id}/media-upload`. */
export async function deleteCampaignMedia(ctx: AppContext, by: AuthUser, id: number): Promise<Campaign> {
  const before = await setCampaignMedia(ctx, by, id, null);
  if (before.mediaPath) await ctx.storage.remove(by.companyId, before.mediaPath);
  return announcedCampaign(ctx, by.companyId, id);
}
