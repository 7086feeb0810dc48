import type { FileList } from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { fileListOptions } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { mediaTypeOf, readMessageForm } from '../messages/uploads.js';
import { findFileList } from './queries.js';
import { announceFileList, fileListNotFound } from './service.js';

const invalid = (message: string) => new AppError('ERR_VALIDATION', 400, message, [{ path: 'files', message }]);

/**
 * `POST /files/uploadList/{id}` (multipart, as Whaticket's dialog sends it): `typeArch=fileList`, and
 * per option with a file, in order, `files`, `mediaType`, `name` and `id` (the option's id). Each file
 * is checked as a conversation attachment is (size, no executables or active content) before any is
 * stored; it replaces the option's previous file.
 */
export async function uploadFileListFiles(ctx: AppContext, by: AuthUser, id: number, req: FastifyRequest): Promise<FileList> {
  const list = await findFileList(ctx.db, by.companyId, id);
  if (!list) throw fileListNotFound();
  const { fields, files } = await readMessageForm(req, ctx.storage, ctx.config.uploadLimitBytes);
  if (fields.typeArch?.some((v) => v !== 'fileList')) throw invalid('typeArch must be fileList');
  const optionIds = (fields.id ?? []).map(Number);
  if (files.length === 0 || optionIds.length !== files.length || optionIds.some((n) => !Number.isInteger(n) || n <= 0)) {
    throw invalid('one option id per file is expected');
  }
  const options = await ctx.db.select().from(fileListOptions).where(eq(fileListOptions.fileId, list.id));
  const byId = new Map(options.map((o) => [o.id, o]));
  if (optionIds.some((n) => !byId.has(n))) throw invalid('unknown option');
  for (const file of files) mediaTypeOf(file);

  const replaced: string[] = [];
  for (const [i, file] of files.entries()) {
    const option = byId.get(optionIds[i]!)!;
    const saved = await ctx.storage.save(by.companyId, file.data, file.mimetype, file.originalName);
    await ctx.db
      .update(fileListOptions)
      .set({ path: saved.fileName, mediaType: saved.mimetype, updatedAt: new Date() })
      .where(and(eq(fileListOptions.id, option.id), eq(fileListOptions.fileId, list.id)));
    if (option.path) replaced.push(option.path);
  }
  for (const path of replaced) await ctx.storage.remove(by.companyId, path);
  return announceFileList(ctx, list);
}
