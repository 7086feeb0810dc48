import { FILE_LISTS_PAGE_SIZE, type FileList, type ListEventPayload, type pageFileListsQuery, type saveFileListBody } from '@balcao/contracts';
import { and, asc, count, eq, ilike, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import { fileListOptions, fileLists } from '../../db/schema/index.js';
import { containsPattern } from '../../db/search.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { conflictAs } from '../contacts/unique.js';
import { findFileList, optionsOf, presentFileList, type FileListRow } from './queries.js';

export const fileListNotFound = () => new AppError('ERR_NO_FILE_LIST_FOUND', 404);
const NAME_KEY = 'files_company_id_name_key';
type Body = z.output<typeof saveFileListBody>;

async function emit(ctx: AppContext, companyId: number, payload: ListEventPayload<FileList>): Promise<void> {
  await ctx.events.publish({ type: 'company.record', companyId, name: 'file', payload });
}

export async function presentWithOptions(ctx: AppContext, rows: FileListRow[]): Promise<FileList[]> {
  const options = await optionsOf(ctx.db, rows.map((r) => r.id));
  return rows.map((row) => presentFileList(row, options.get(row.id) ?? [], (file) => ctx.storage.url(ctx.config.apiUrl, row.companyId, file)));
}

async function presentOne(ctx: AppContext, row: FileListRow): Promise<FileList> {
  const [list] = await presentWithOptions(ctx, [row]);
  if (!list) throw fileListNotFound();
  return list;
}

/** `GET /files/`: 20 per page by name, each with its options. */
export async function pageFileLists(ctx: AppContext, by: AuthUser, q: z.output<typeof pageFileListsQuery>) {
  const term = containsPattern(q.searchParam);
  const where = and(eq(fileLists.companyId, by.companyId), term ? ilike(fileLists.name, term) : undefined);
  const [total] = await ctx.db.select({ n: count() }).from(fileLists).where(where);
  const rows = await ctx.db
    .select()
    .from(fileLists)
    .where(where)
    .orderBy(asc(fileLists.name), asc(fileLists.id))
    .limit(FILE_LISTS_PAGE_SIZE)
    .offset((q.pageNumber - 1) * FILE_LISTS_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { files: await presentWithOptions(ctx, rows), count: n, hasMore: q.pageNumber * FILE_LISTS_PAGE_SIZE < n };
}

export async function getFileList(ctx: AppContext, by: AuthUser, id: number): Promise<FileList> {
  const row = await findFileList(ctx.db, by.companyId, id);
  if (!row) throw fileListNotFound();
  return presentOne(ctx, row);
}

/**
 * The list's options become exactly `options`: those with an id of this list are renamed, new ones
 * added, the rest removed. Answers the stored files of the removed options, deleted after commit.
 */
async function replaceOptions(tx: Tx, fileId: number, options: Body['options']): Promise<string[]> {
  const current = await tx.select().from(fileListOptions).where(eq(fileListOptions.fileId, fileId));
  const known = new Map(current.map((o) => [o.id, o]));
  const kept = new Set<number>();
  for (const option of options) {
    if (option.id !== undefined && !known.has(option.id)) throw new AppError('ERR_VALIDATION', 400, 'unknown option', [{ path: 'options', message: 'unknown option' }]);
    if (option.id !== undefined) {
      kept.add(option.id);
      await tx.update(fileListOptions).set({ name: option.name, updatedAt: new Date() }).where(eq(fileListOptions.id, option.id));
    } else {
      await tx.insert(fileListOptions).values({ fileId, name: option.name });
    }
  }
  const gone = current.filter((o) => !kept.has(o.id));
  if (gone.length > 0) await tx.delete(fileListOptions).where(inArray(fileListOptions.id, gone.map((o) => o.id)));
  return gone.flatMap((o) => (o.path ? [o.path] : []));
}

async function removeFiles(ctx: AppContext, companyId: number, paths: string[]): Promise<void> {
  for (const path of paths) await ctx.storage.remove(companyId, path);
}

/** `POST /files`: the list and its options (files come next through `POST /files/uploadList/{id}`). */
export async function createFileList(ctx: AppContext, by: AuthUser, body: Body): Promise<FileList> {
  const row = await conflictAs(NAME_KEY, 'ERR_FILE_LIST_NAME_ALREADY_EXISTS', () =>
    ctx.db.transaction(async (tx) => {
      const [inserted] = await tx.insert(fileLists).values({ companyId: by.companyId, name: body.name, message: body.message, userId: by.id }).returning();
      if (!inserted) throw new AppError('ERR_INTERNAL', 500);
      await replaceOptions(tx, inserted.id, body.options);
      return inserted;
    }),
  );
  const list = await presentOne(ctx, row);
  await emit(ctx, by.companyId, { action: 'create', record: list });
  return list;
}

export async function updateFileList(ctx: AppContext, by: AuthUser, id: number, body: Body): Promise<FileList> {
  const { row, removed } = await conflictAs(NAME_KEY, 'ERR_FILE_LIST_NAME_ALREADY_EXISTS', () =>
    ctx.db.transaction(async (tx) => {
      const scope = and(eq(fileLists.companyId, by.companyId), eq(fileLists.id, id));
      const [current] = await tx.select().from(fileLists).where(scope).for('update');
      if (!current) throw fileListNotFound();
      const [updated] = await tx.update(fileLists).set({ name: body.name, message: body.message, updatedAt: new Date() }).where(scope).returning();
      if (!updated) throw fileListNotFound();
      return { row: updated, removed: await replaceOptions(tx, id, body.options) };
    }),
  );
  await removeFiles(ctx, by.companyId, removed);
  const list = await presentOne(ctx, row);
  await emit(ctx, by.companyId, { action: 'update', record: list });
  return list;
}

/** Its options and their files go with it; queues and bot options that used it let go (ON DELETE SET NULL). */
export async function deleteFileList(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  const paths = await ctx.db.transaction(async (tx) => {
    const row = await findFileList(tx, by.companyId, id);
    if (!row) throw fileListNotFound();
    const options = await tx.select({ path: fileListOptions.path }).from(fileListOptions).where(eq(fileListOptions.fileId, id));
    await tx.delete(fileLists).where(eq(fileLists.id, id));
    return options.flatMap((o) => (o.path ? [o.path] : []));
  });
  await removeFiles(ctx, by.companyId, paths);
  await emit(ctx, by.companyId, { action: 'delete', id });
}

/** After an upload: the list as it now is, announced. */
export async function announceFileList(ctx: AppContext, row: FileListRow): Promise<FileList> {
  const list = await presentOne(ctx, row);
  await emit(ctx, row.companyId, { action: 'update', record: list });
  return list;
}
