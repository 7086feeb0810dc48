import { SCHEDULE_ATTACHMENT_EXTENSIONS, type Schedule } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import { extname } from 'node:path';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { mediaTypeOf, readMessageForm } from '../messages/uploads.js';
import { announceSchedule, scheduleNotFound } from './announce.js';
import { setScheduleMedia } from './service.js';

const ACCEPTED = new Set<string>(SCHEDULE_ATTACHMENT_EXTENSIONS.map((ext) => `.${ext}`));

/**
 * `POST /schedules/{id}/media-upload` (multipart `file`): one attachment of the kinds the
 * modal offers (png, jpg, jpeg, pdf, xls, xlsx, gif), within the upload limit; it
 * replaces the previous one, whose file is removed.
 */
export async function uploadScheduleMedia(ctx: AppContext, by: AuthUser, id: number, req: FastifyRequest): Promise<Schedule> {
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
    before = await setScheduleMedia(ctx, by, id, { mediaPath: saved.fileName, mediaName: file.originalName.slice(0, 255) });
  } catch (err) {
    await ctx.storage.remove(by.companyId, saved.fileName);
    throw err;
  }
  if (before.mediaPath) await ctx.storage.remove(by.companyId, before.mediaPath);
  return announced(ctx, by, id);
}

/** `DELETE /schedules/{id}/media-upload`: the schedule goes on without an attachment. */
export async function deleteScheduleMedia(ctx: AppContext, by: AuthUser, id: number): Promise<Schedule> {
  const before = await setScheduleMedia(ctx, by, id, null);
  if (before.mediaPath) await ctx.storage.remove(by.companyId, before.mediaPath);
  return announced(ctx, by, id);
}

async function announced(ctx: AppContext, by: AuthUser, id: number): Promise<Schedule> {
  const schedule = await announceSchedule(ctx, by.companyId, id, 'update');
  if (!schedule) throw scheduleNotFound();
  return schedule;
}
