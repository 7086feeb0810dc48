import { SCHEDULE_ATTACHMENT_EXTENSIONS } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import { extname } from 'node:path';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { mediaTypeOf, readMessageForm } from './uploads.js';

const ACCEPTED = new Set<string>(SCHEDULE_ATTACHMENT_EXTENSIONS.map((ext) => `.${ext}`));

export interface StoredAttachment {
  mediaPath: string;
  mediaName: string;
}

/**
 * The single attachment of a record that sends it later (a schedule, a campaign): one
 * multipart `file` of the kinds the modals offer (png, jpg, jpeg, pdf, xls, xlsx, gif),
 * within the upload limit. `attach` stores it on the record and answers the record's
 * previous `mediaPath`, whose file is then removed; if `attach` throws, the new file goes.
 */
export async function replaceAttachment(
  ctx: AppContext,
  companyId: number,
  req: FastifyRequest,
  attach: (media: StoredAttachment) => Promise<{ mediaPath: string | null }>,
): Promise<void> {
  const form = await readMessageForm(req, ctx.storage, ctx.config.uploadLimitBytes);
  const [file] = form.files;
  if (!file || form.files.length > 1) throw new AppError('ERR_VALIDATION', 400, 'send exactly one file');
  if (!ACCEPTED.has(extname(file.originalName).toLowerCase())) {
    throw new AppError('ERR_INVALID_MEDIA_TYPE', 400, `accepted: ${SCHEDULE_ATTACHMENT_EXTENSIONS.join(', ')}`);
  }
  mediaTypeOf(file);
  const saved = await ctx.storage.save(companyId, file.data, file.mimetype, file.originalName);
  let before;
  try {
    before = await attach({ mediaPath: saved.fileName, mediaName: file.originalName.slice(0, 255) });
  } catch (err) {
    await ctx.storage.remove(companyId, saved.fileName);
    throw err;
  }
  if (before.mediaPath) await ctx.storage.remove(companyId, before.mediaPath);
}
