import type { Help, HelpsPage, ListEventPayload, PageQuery, createHelpBody, updateHelpBody } from '@balcao/contracts';
import { asc, count, eq, ilike, or } from 'drizzle-orm';
import type { z } from 'zod';
import { helps } from '../../db/schema/index.js';
import { containsPattern } from '../../db/search.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';

export const HELPS_PAGE_SIZE = 20;

/** The one place that shapes a help item for the API. */
function presentHelp(row: typeof helps.$inferSelect): Help {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    video: row.video,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Help items are platform-wide: every company's open sockets hear about changes (the menu entry shows when one exists). */
async function emitHelp(ctx: AppContext, payload: ListEventPayload<Help>): Promise<void> {
  await ctx.events.publish({ type: 'platform.help', payload });
}

export async function listHelps(ctx: AppContext): Promise<Help[]> {
  return (await ctx.db.select().from(helps).orderBy(asc(helps.title), asc(helps.id))).map(presentHelp);
}

export async function pageHelps(ctx: AppContext, { searchParam, pageNumber = 1 }: PageQuery): Promise<HelpsPage> {
  const term = containsPattern(searchParam);
  const where = term ? or(ilike(helps.title, term), ilike(helps.description, term)) : undefined;
  const [total] = await ctx.db.select({ n: count() }).from(helps).where(where);
  const rows = await ctx.db
    .select()
    .from(helps)
    .where(where)
    .orderBy(asc(helps.title), asc(helps.id))
    .limit(HELPS_PAGE_SIZE)
    .offset((pageNumber - 1) * HELPS_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { records: rows.map(presentHelp), count: n, hasMore: pageNumber * HELPS_PAGE_SIZE < n };
}

export async function createHelp(ctx: AppContext, body: z.output<typeof createHelpBody>): Promise<Help> {
  const [row] = await ctx.db.insert(helps).values(body).returning();
  if (!row) throw new AppError('ERR_INTERNAL', 500);
  const help = presentHelp(row);
  await emitHelp(ctx, { action: 'create', record: help });
  return help;
}

export async function updateHelp(ctx: AppContext, id: number, body: z.output<typeof updateHelpBody>): Promise<Help> {
  const [row] = Object.keys(body).length > 0 ? await ctx.db.update(helps).set(body).where(eq(helps.id, id)).returning() : await ctx.db.select().from(helps).where(eq(helps.id, id));
  if (!row) throw new AppError('ERR_NO_HELP_FOUND', 404);
  const help = presentHelp(row);
  await emitHelp(ctx, { action: 'update', record: help });
  return help;
}

export async function deleteHelp(ctx: AppContext, id: number): Promise<void> {
  const deleted = await ctx.db.delete(helps).where(eq(helps.id, id)).returning({ id: helps.id });
  if (deleted.length === 0) throw new AppError('ERR_NO_HELP_FOUND', 404);
  await emitHelp(ctx, { action: 'delete', id });
}
