import type { FileList } from '@balcao/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { fileListOptions, fileLists } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';

export type FileListRow = typeof fileLists.$inferSelect;
export type FileListOptionRow = typeof fileListOptions.$inferSelect;

/** The one place that shapes a file list (with its options, in order) for the API and the socket. */
export function presentFileList(row: FileListRow, options: FileListOptionRow[], urlOf: (file: string) => string): FileList {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    message: row.message,
    userId: row.userId,
    options: options.map((o) => ({ id: o.id, fileId: o.fileId, name: o.name, path: o.path, mediaType: o.mediaType, url: o.path ? urlOf(o.path) : null })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function findFileList(db: DbOrTx, companyId: number, id: number): Promise<FileListRow | undefined> {
  const [row] = await db
    .select()
    .from(fileLists)
    .where(and(eq(fileLists.companyId, companyId), eq(fileLists.id, id)));
  return row;
}

/** The options of many lists in one query, by list. */
export async function optionsOf(db: DbOrTx, fileIds: number[]): Promise<Map<number, FileListOptionRow[]>> {
  const out = new Map<number, FileListOptionRow[]>();
  if (fileIds.length === 0) return out;
  const rows = await db.select().from(fileListOptions).where(inArray(fileListOptions.fileId, fileIds)).orderBy(asc(fileListOptions.id));
  for (const row of rows) out.set(row.fileId, [...(out.get(row.fileId) ?? []), row]);
  return out;
}

/** A file-list id a form refers to (queue, bot option) must be the company's: 400 on the field otherwise, never the FK's 500. */
export async function assertOwnFileList(db: DbOrTx, companyId: number, id: number | null | undefined, path = 'fileListId'): Promise<void> {
  if (id && !(await findFileList(db, companyId, id))) throw new AppError('ERR_VALIDATION', 400, 'unknown file list', [{ path, message: 'unknown file list' }]);
}
