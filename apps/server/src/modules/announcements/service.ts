import type { Announcement, AnnouncementsPage, ListEventPayload, PageQuery, createAnnouncementBody, updateAnnouncementBody } from '@balcao/contracts';
import { asc, count, desc, eq, ilike, or } from 'drizzle-orm';
import type { z } from 'zod';
import { announcements } from '../../db/schema/index.js';
import { containsPattern } from '../../db/search.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';

export const ANNOUNCEMENTS_PAGE_SIZE = 20;
/** The bell shows the newest active ones; older ones stay readable on the admin page. */
export const ANNOUNCEMENTS_BELL_LIMIT = 50;

type Row = typeof announcements.$inferSelect;

/** The one place that shapes an announcement for the API. */
function presentAnnouncement(row: Row): Announcement {
  return {
    id: row.id,
    title: row.title,
    text: row.text,
    priority: row.priority,
    status: row.status,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Announcements are platform-wide: every logged-in user hears `company-announcement`. */
async function emitAnnouncement(ctx: AppContext, payload: ListEventPayload<Announcement>): Promise<void> {
  await ctx.events.publish({ type: 'platform.announcement', payload });
}

/** `GET /announcements/list`: what the bell shows, active ones by priority (1 first), then newest. */
export async function listActiveAnnouncements(ctx: AppContext): Promise<Announcement[]> {
  const rows = await ctx.db
    .select()
    .from(announcements)
    .where(eq(announcements.status, true))
    .orderBy(asc(announcements.priority), desc(announcements.createdAt), desc(announcements.id))
    .limit(ANNOUNCEMENTS_BELL_LIMIT);
  return rows.map(presentAnnouncement);
}

export async function pageAnnouncements(ctx: AppContext, { searchParam, pageNumber = 1 }: PageQuery): Promise<AnnouncementsPage> {
  const term = containsPattern(searchParam);
  const where = term ? or(ilike(announcements.title, term), ilike(announcements.text, term)) : undefined;
  const [total] = await ctx.db.select({ n: count() }).from(announcements).where(where);
  const rows = await ctx.db
    .select()
    .from(announcements)
    .where(where)
    .orderBy(desc(announcements.createdAt), desc(announcements.id))
    .limit(ANNOUNCEMENTS_PAGE_SIZE)
    .offset((pageNumber - 1) * ANNOUNCEMENTS_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { records: rows.map(presentAnnouncement), count: n, hasMore: pageNumber * ANNOUNCEMENTS_PAGE_SIZE < n };
}

export async function findAnnouncementRow(ctx: AppContext, id: number): Promise<Row> {
  const [row] = await ctx.db.select().from(announcements).where(eq(announcements.id, id));
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND', 404);
  return row;
}

export async function getAnnouncement(ctx: AppContext, id: number): Promise<Announcement> {
  return presentAnnouncement(await findAnnouncementRow(ctx, id));
}

export async function createAnnouncement(ctx: AppContext, body: z.output<typeof createAnnouncementBody>): Promise<Announcement> {
  const [row] = await ctx.db.insert(announcements).values(body).returning();
  if (!row) throw new AppError('ERR_INTERNAL', 500);
  const announcement = presentAnnouncement(row);
  await emitAnnouncement(ctx, { action: 'create', record: announcement });
  return announcement;
}

/** Saves the given fields (text or media) and tells everyone. */
export async function saveAnnouncement(ctx: AppContext, id: number, values: Partial<Omit<Row, 'id' | 'createdAt' | 'updatedAt'>>): Promise<Announcement> {
  const [row] =
    Object.keys(values).length > 0
      ? await ctx.db.update(announcements).set(values).where(eq(announcements.id, id)).returning()
      : await ctx.db.select().from(announcements).where(eq(announcements.id, id));
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND', 404);
  const announcement = presentAnnouncement(row);
  await emitAnnouncement(ctx, { action: 'update', record: announcement });
  return announcement;
}

export async function updateAnnouncement(ctx: AppContext, id: number, body: z.output<typeof updateAnnouncementBody>): Promise<Announcement> {
  return saveAnnouncement(ctx, id, body);
}

/** Deletes the row and answers it, so the caller can remove its image. */
export async function deleteAnnouncement(ctx: AppContext, id: number): Promise<Row> {
  const [deleted] = await ctx.db.delete(announcements).where(eq(announcements.id, id)).returning();
  if (!deleted) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND', 404);
  await emitAnnouncement(ctx, { action: 'delete', id });
  return deleted;
}
