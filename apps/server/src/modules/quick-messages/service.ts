import {
  QUICK_MESSAGES_PAGE_SIZE,
  canEditQuickMessage,
  type ListEventPayload,
  type QuickMessage,
  type QuickMessagePage,
  type createQuickMessageBody,
  type pageQuickMessagesQuery,
  type updateQuickMessageBody,
} from '@balcao/contracts';
import { and, asc, count, eq, ilike, or } from 'drizzle-orm';
import type { z } from 'zod';
import { quickMessages } from '../../db/schema/index.js';
import { containsPattern } from '../../db/search.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';

type QuickMessageRow = typeof quickMessages.$inferSelect;

export function presentQuickMessage(row: QuickMessageRow, mediaUrl: (file: string) => string): QuickMessage {
  return {
    id: row.id,
    shortcode: row.shortcode,
    message: row.message,
    geral: row.geral,
    status: row.status,
    visao: row.visao,
    userId: row.userId,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    isMedia: row.mediaPath !== null,
    mediaUrl: row.mediaPath ? mediaUrl(row.mediaPath) : null,
  };
}

const present = (ctx: AppContext, companyId: number) => (row: QuickMessageRow) =>
  presentQuickMessage(row, (file) => ctx.storage.url(ctx.config.apiUrl, companyId, file));

const isAdmin = (by: AuthUser) => by.profile === 'admin' || by.super;
const notFound = () => new AppError('ERR_NO_QUICK_MESSAGE_FOUND', 404);

/**
 * Who sees a reply on the page (docs/quick-messages.md): admins every one of the company;
 * others their own, the general ones and those the owner made visible to the team (`visao`).
 */
function visibleTo(by: AuthUser) {
  const company = eq(quickMessages.companyId, by.companyId);
  if (isAdmin(by)) return company;
  return and(company, or(eq(quickMessages.userId, by.id), eq(quickMessages.geral, true), eq(quickMessages.visao, true)));
}

/** `company-{companyId}-quickemessage`: to everyone when the team may see the reply, else to its owner and the admins. */
async function emitQuickMessage(ctx: AppContext, row: QuickMessageRow, payload: ListEventPayload<QuickMessage>): Promise<void> {
  await ctx.events.publish({ type: 'quickMessage.record', companyId: row.companyId, ownerId: row.userId, shared: row.visao || row.geral, payload });
}

/** `GET /quick-messages/list`: the active quick replies the caller may use, the company's general ones and its own. */
export async function listUsableQuickMessages(ctx: AppContext, auth: AuthUser): Promise<QuickMessage[]> {
  const rows = await ctx.db
    .select()
    .from(quickMessages)
    .where(and(eq(quickMessages.companyId, auth.companyId), eq(quickMessages.status, true), or(eq(quickMessages.geral, true), eq(quickMessages.userId, auth.id))))
    .orderBy(asc(quickMessages.shortcode), asc(quickMessages.id));
  return rows.map(present(ctx, auth.companyId));
}

/** `GET /quick-messages`: 20 per page by shortcode, searched in the shortcode and the message. */
export async function pageQuickMessages(ctx: AppContext, by: AuthUser, q: z.output<typeof pageQuickMessagesQuery>): Promise<QuickMessagePage> {
  const term = containsPattern(q.searchParam);
  const where = and(visibleTo(by), term ? or(ilike(quickMessages.shortcode, term), ilike(quickMessages.message, term)) : undefined);
  const [total] = await ctx.db.select({ n: count() }).from(quickMessages).where(where);
  const rows = await ctx.db
    .select()
    .from(quickMessages)
    .where(where)
    .orderBy(asc(quickMessages.shortcode), asc(quickMessages.id))
    .limit(QUICK_MESSAGES_PAGE_SIZE)
    .offset((q.pageNumber - 1) * QUICK_MESSAGES_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { records: rows.map(present(ctx, by.companyId)), count: n, hasMore: q.pageNumber * QUICK_MESSAGES_PAGE_SIZE < n };
}

/** A reply the caller may see; another company's, or a colleague's private one, is not found. */
async function visibleRow(ctx: AppContext, by: AuthUser, id: number): Promise<QuickMessageRow> {
  const [row] = await ctx.db
    .select()
    .from(quickMessages)
    .where(and(visibleTo(by), eq(quickMessages.id, id)));
  if (!row) throw notFound();
  return row;
}

/** A reply the caller may change: visible, and theirs, general, or the caller is an admin (403 otherwise). */
export async function editableRow(ctx: AppContext, by: AuthUser, id: number): Promise<QuickMessageRow> {
  const row = await visibleRow(ctx, by, id);
  if (!canEditQuickMessage(row, by)) throw new AppError('ERR_NO_PERMISSION', 403);
  return row;
}

export async function getQuickMessage(ctx: AppContext, by: AuthUser, id: number): Promise<QuickMessage> {
  return present(ctx, by.companyId)(await visibleRow(ctx, by, id));
}

/** `POST /quick-messages`: owned by the caller. */
export async function createQuickMessage(ctx: AppContext, by: AuthUser, body: z.output<typeof createQuickMessageBody>): Promise<QuickMessage> {
  const [row] = await ctx.db
    .insert(quickMessages)
    .values({ ...body, companyId: by.companyId, userId: by.id })
    .returning();
  if (!row) throw new AppError('ERR_INTERNAL', 500);
  return announce(ctx, row, 'create');
}

export async function updateQuickMessage(ctx: AppContext, by: AuthUser, id: number, body: z.output<typeof updateQuickMessageBody>): Promise<QuickMessage> {
  const current = await editableRow(ctx, by, id);
  return saveRow(ctx, current, body);
}

/** Writes a change to a reply already checked, and tells whoever may see it, before and after. */
export async function saveRow(ctx: AppContext, current: QuickMessageRow, changes: Partial<QuickMessageRow>): Promise<QuickMessage> {
  const [row] = await ctx.db
    .update(quickMessages)
    .set(changes)
    .where(and(eq(quickMessages.companyId, current.companyId), eq(quickMessages.id, current.id)))
    .returning();
  if (!row) throw notFound();
  // Made private: the team's lists drop it.
  if ((current.visao || current.geral) && !(row.visao || row.geral)) await emitQuickMessage(ctx, current, { action: 'delete', id: row.id });
  return announce(ctx, row, 'update');
}

async function announce(ctx: AppContext, row: QuickMessageRow, action: 'create' | 'update'): Promise<QuickMessage> {
  const record = present(ctx, row.companyId)(row);
  await emitQuickMessage(ctx, row, { action, record });
  return record;
}

/** `DELETE /quick-messages/{id}`: its media file goes with it. */
export async function deleteQuickMessage(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  const row = await editableRow(ctx, by, id);
  await ctx.db.delete(quickMessages).where(and(eq(quickMessages.companyId, by.companyId), eq(quickMessages.id, id)));
  if (row.mediaPath) await ctx.storage.remove(row.companyId, row.mediaPath);
  await emitQuickMessage(ctx, row, { action: 'delete', id });
}
