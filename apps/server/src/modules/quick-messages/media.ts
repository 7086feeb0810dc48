import type { QuickMessage } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { mediaTypeOf, readMessageForm } from '../messages/uploads.js';
import { editableRow, saveRow } from './service.js';

/**
 * `POST /quick-messages/{id}/media-upload` (multipart `file`, `typeArch=quickMessage`): the reply's one
 * attachment, replacing the previous. Checked as a conversation attachment is (size, no executables or
 * active content), since the composer sends it as one.
 */
export async function uploadQuickMessageMedia(ctx: AppContext, by: AuthUser, id: number, req: FastifyRequest): Promise<QuickMessage> {
  const current = await editableRow(ctx, by, id);
  const { files } = await readMessageForm(req, ctx.storage, ctx.config.uploadLimitBytes);
  const [file] = files;
  if (!file || files.length > 1) throw new AppError('ERR_VALIDATION', 400, 'exactly one file is expected');
  mediaTypeOf(file);
  const saved = await ctx.storage.save(by.companyId, file.data, file.mimetype, file.originalName);
  const updated = await saveRow(ctx, current, { mediaPath: saved.fileName, mediaName: file.originalName || saved.fileName });
  if (current.mediaPath) await ctx.storage.remove(by.companyId, current.mediaPath);
  return updated;
}

/** `DELETE /quick-messages/{id}/media-upload`: the reply keeps its text. */
export async function removeQuickMessageMedia(ctx: AppContext, by: AuthUser, id: number): Promise<QuickMessage> {
  const current = await editableRow(ctx, by, id);
  const updated = await saveRow(ctx, current, { mediaPath: null, mediaName: null });
  if (current.mediaPath) await ctx.storage.remove(by.companyId, current.mediaPath);
  return updated;
}
