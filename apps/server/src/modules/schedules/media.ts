import type { Schedule } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { replaceAttachment } from '../messages/attachment.js';
import { announceSchedule, scheduleNotFound } from './announce.js';
import { setScheduleMedia } from './service.js';

/** `POST /schedules/{id}/media-upload` (multipart `file`): it replaces the previous attachment, whose file is removed. */
export async function uploadScheduleMedia(ctx: AppContext, by: AuthUser, id: number, req: FastifyRequest): Promise<Schedule> {
  await replaceAttachment(ctx, by.companyId, req, (media) => setScheduleMedia(ctx, by, id, media));
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
