import type { Schedule } from '@balcao/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { schedules } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { presentSchedule, selectSchedules } from './presenter.js';

export const scheduleNotFound = () => new AppError('ERR_NO_SCHEDULE_FOUND', 404);

/** One schedule of the company, as the API shows it. */
export async function loadSchedule(ctx: AppContext, companyId: number, id: number): Promise<Schedule | undefined> {
  const [found] = await selectSchedules(ctx.db, and(eq(schedules.companyId, companyId), eq(schedules.id, id))!);
  return found && presentSchedule(found, (file) => ctx.storage.url(ctx.config.apiUrl, companyId, file));
}

/** Tells the company's calendars (`company{id}-schedule`); answers the schedule, or undefined when it is gone. */
export async function announceSchedule(ctx: AppContext, companyId: number, id: number, action: 'create' | 'update'): Promise<Schedule | undefined> {
  const schedule = await loadSchedule(ctx, companyId, id);
  if (schedule) await ctx.events.publish({ type: 'schedule.record', companyId, payload: { action, record: schedule } });
  return schedule;
}

/** The engine's batch outcome: every schedule of `ids` read in one query and announced to its company's calendars. */
export async function announceSchedules(ctx: AppContext, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await selectSchedules(ctx.db, inArray(schedules.id, ids));
  for (const s of found) {
    const record = presentSchedule(s, (file) => ctx.storage.url(ctx.config.apiUrl, s.row.companyId, file));
    await ctx.events.publish({ type: 'schedule.record', companyId: s.row.companyId, payload: { action: 'update', record } });
  }
}
