import { createScheduleBody, idParam, listSchedulesQuery, schedulePageResponse, scheduleSchema, updateScheduleBody } from '@balcao/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { requirePlanFlag } from '../../http/plan.js';
import { deleteScheduleMedia, uploadScheduleMedia } from './media.js';
import { createSchedule, deleteSchedule, getSchedule, listSchedules, updateSchedule } from './service.js';

const params = z.object({ id: idParam });

/** Scheduled messages (spec 2 §7): every user of a company whose plan has `useSchedules`. */
export function registerScheduleRoutes(app: FastifyInstance, ctx: AppContext, authenticate: (req: FastifyRequest) => Promise<void>): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: authenticate, preHandler: requirePlanFlag('useSchedules') };
  const tags = ['schedules'];

  r.get('/schedules', { schema: { tags, querystring: listSchedulesQuery, response: { 200: schedulePageResponse } }, ...guard }, async (req) =>
    listSchedules(ctx, caller(req), req.query),
  );

  r.get('/schedules/:id', { schema: { tags, params, response: { 200: scheduleSchema } }, ...guard }, async (req) =>
    getSchedule(ctx, caller(req), req.params.id),
  );

  r.post('/schedules', { schema: { tags, body: createScheduleBody, response: { 200: scheduleSchema } }, ...guard }, async (req) =>
    createSchedule(ctx, caller(req), req.body),
  );

  r.put('/schedules/:id', { schema: { tags, params, body: updateScheduleBody, response: { 200: scheduleSchema } }, ...guard }, async (req) =>
    updateSchedule(ctx, caller(req), req.params.id, req.body),
  );

  r.delete('/schedules/:id', { schema: { tags, params, response: { 200: z.object({}) } }, ...guard }, async (req) => {
    await deleteSchedule(ctx, caller(req), req.params.id);
    return {};
  });

  r.post(
    '/schedules/:id/media-upload',
    { schema: { tags, params, consumes: ['multipart/form-data'], response: { 200: scheduleSchema } }, ...guard },
    async (req) => uploadScheduleMedia(ctx, caller(req), req.params.id, req),
  );

  r.delete('/schedules/:id/media-upload', { schema: { tags, params, response: { 200: scheduleSchema } }, ...guard }, async (req) =>
    deleteScheduleMedia(ctx, caller(req), req.params.id),
  );
}
