import {
  SCHEDULE_DEFAULTS,
  SCHEDULES_PAGE_SIZE,
  type createScheduleBody,
  type ErrorCode,
  type ListSchedulesQuery,
  type Schedule,
  type SchedulePage,
  type updateScheduleBody,
} from '@balcao/contracts';
import { and, asc, count, eq, gte, ilike, lt, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { containsPattern } from '../../db/search.js';
import { contacts, queues, schedules, users, whatsapps } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { announceSchedule, loadSchedule, scheduleNotFound as notFound } from './announce.js';
import { wakeSchedule } from './engine.js';
import { presentSchedule, selectSchedules, type ScheduleRow } from './presenter.js';
import { moveToBusinessDay } from './recurrence.js';

/** `GET /schedules`: search in the message and the contact's name, a contact, the calendar's visible range; soonest first. */
export async function listSchedules(ctx: AppContext, by: AuthUser, q: ListSchedulesQuery): Promise<SchedulePage> {
  const conditions: (SQL | undefined)[] = [eq(schedules.companyId, by.companyId)];
  const pattern = containsPattern(q.searchParam);
  if (pattern) conditions.push(or(ilike(schedules.body, pattern), ilike(contacts.name, pattern)));
  if (q.contactId) conditions.push(eq(schedules.contactId, q.contactId));
  if (q.dateFrom) conditions.push(gte(schedules.sendAt, q.dateFrom));
  if (q.dateTo) conditions.push(lt(schedules.sendAt, q.dateTo));
  const where = and(...conditions)!;
  const offset = (q.pageNumber - 1) * SCHEDULES_PAGE_SIZE;
  const [rows, [total]] = await Promise.all([
    selectSchedules(ctx.db, where).orderBy(asc(schedules.sendAt), asc(schedules.id)).limit(SCHEDULES_PAGE_SIZE).offset(offset),
    ctx.db.select({ n: count() }).from(schedules).innerJoin(contacts, eq(contacts.id, schedules.contactId)).where(where),
  ]);
  const n = total?.n ?? 0;
  return {
    schedules: rows.map((r) => presentSchedule(r, (file) => ctx.storage.url(ctx.config.apiUrl, by.companyId, file))),
    count: n,
    hasMore: offset + rows.length < n,
  };
}

export async function getSchedule(ctx: AppContext, by: AuthUser, id: number): Promise<Schedule> {
  return orNotFound(await loadSchedule(ctx, by.companyId, id));
}

/** Gone (never there, or deleted meanwhile): 404. */
function orNotFound(schedule: Schedule | undefined): Schedule {
  if (!schedule) throw notFound();
  return schedule;
}

type Body = z.output<typeof updateScheduleBody>;

/** Every id of the body must be one of the caller's company (404 with the record's own code otherwise). */
async function assertReferences(db: DbOrTx, companyId: number, body: Body): Promise<void> {
  const checks: [number | null | undefined, typeof contacts | typeof whatsapps | typeof users | typeof queues, ErrorCode][] = [
    [body.contactId, contacts, 'ERR_NO_CONTACT_FOUND'],
    [body.whatsappId, whatsapps, 'ERR_NO_WAPP_FOUND'],
    [body.ticketUserId, users, 'ERR_NO_USER_FOUND'],
    [body.queueId, queues, 'ERR_NO_QUEUE_FOUND'],
  ];
  for (const [id, table, code] of checks) {
    if (!id) continue;
    const [row] = await db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.companyId, companyId), eq(table.id, id)));
    if (!row) throw new AppError(code, 404);
  }
}

/** The stored send time: the chosen one, moved off a weekend or holiday when `tipoDias` asks. */
const timing = (sendAt: Date, tipoDias: number) => ({ plannedAt: sendAt, sendAt: moveToBusinessDay(sendAt, tipoDias) });

export async function createSchedule(ctx: AppContext, by: AuthUser, body: z.output<typeof createScheduleBody>): Promise<Schedule> {
  await assertReferences(ctx.db, by.companyId, body);
  const tipoDias = body.tipoDias ?? SCHEDULE_DEFAULTS.tipoDias;
  const [row] = await ctx.db
    .insert(schedules)
    .values({ ...SCHEDULE_DEFAULTS, ...body, tipoDias, ...timing(body.sendAt, tipoDias), companyId: by.companyId, userId: by.id })
    .returning();
  if (!row) throw new AppError('ERR_INTERNAL', 500);
  await wakeSchedule(ctx, row);
  return orNotFound(await announceSchedule(ctx, by.companyId, row.id, 'create'));
}

/**
 * Saving a schedule with a send time arms it again: status PENDENTE, reason cleared, and
 * a finished one (sent or failed) counts its sends from zero.
 */
export async function updateSchedule(ctx: AppContext, by: AuthUser, id: number, body: Body): Promise<Schedule> {
  await assertReferences(ctx.db, by.companyId, body);
  const scope = and(eq(schedules.companyId, by.companyId), eq(schedules.id, id));
  const [current] = await ctx.db.select().from(schedules).where(scope);
  if (!current) throw notFound();
  const tipoDias = body.tipoDias ?? current.tipoDias;
  const finished = current.status === 'ENVIADA' || current.status === 'ERRO';
  const rearm = body.sendAt
    ? { ...timing(body.sendAt, tipoDias), status: 'PENDENTE' as const, reason: null, claimedUntil: null, ...(finished ? { contadorEnvio: 0 } : {}) }
    : {};
  const [row] = await ctx.db
    .update(schedules)
    .set({ ...body, ...rearm })
    .where(scope)
    .returning();
  if (!row) throw notFound();
  if (body.sendAt) await wakeSchedule(ctx, row);
  return orNotFound(await announceSchedule(ctx, by.companyId, id, 'update'));
}

export async function deleteSchedule(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  const [row] = await ctx.db
    .delete(schedules)
    .where(and(eq(schedules.companyId, by.companyId), eq(schedules.id, id)))
    .returning();
  if (!row) throw notFound();
  if (row.mediaPath) await ctx.storage.remove(by.companyId, row.mediaPath);
  await ctx.events.publish({ type: 'schedule.record', companyId: by.companyId, payload: { action: 'delete', id } });
}

/** Sets or clears the attachment; answers the row before the change (its old file is the caller's to remove). */
export async function setScheduleMedia(
  ctx: AppContext,
  by: AuthUser,
  id: number,
  media: { mediaPath: string; mediaName: string } | null,
): Promise<ScheduleRow> {
  const scope = and(eq(schedules.companyId, by.companyId), eq(schedules.id, id));
  const [before] = await ctx.db.select().from(schedules).where(scope);
  if (!before) throw notFound();
  await ctx.db
    .update(schedules)
    .set(media ?? { mediaPath: null, mediaName: null })
    .where(scope);
  return before;
}
