import { GREETING_MEDIA_TYPES, type Whatsapp } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { whatsapps } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { emitWhatsapp } from '../conversations/session-status.js';
import { baseMimetype } from '../../storage/media.js';
import { assertCanManage, connectionFor, presentOne } from './service.js';

export interface UploadedFile {
  data: Buffer;
  mimetype: string;
  filename: string;
}

/** `POST /whatsapp/{id}/media-upload`: the greeting's image or video (spec 1 §5), replacing the previous one. */
export async function setGreetingMedia(ctx: AppContext, by: AuthUser, id: number, file: UploadedFile): Promise<Whatsapp> {
  await assertCanManage(ctx, by);
  const row = await connectionFor(ctx, by, id);
  if (!GREETING_MEDIA_TYPES.some((prefix) => baseMimetype(file.mimetype).startsWith(prefix))) throw new AppError('ERR_INVALID_MEDIA_TYPE', 400);
  const saved = await ctx.storage.save(row.companyId, file.data, file.mimetype, file.filename);
  const [updated] = await ctx.db.update(whatsapps).set({ greetingMediaAttachment: saved.fileName }).where(eq(whatsapps.id, id)).returning();
  if (row.greetingMediaAttachment) await ctx.storage.remove(row.companyId, row.greetingMediaAttachment);
  if (!updated) throw new AppError('ERR_NO_WAPP_FOUND', 404);
  await emitWhatsapp(ctx, updated);
  return presentOne(ctx, by, updated);
}

/** `DELETE /whatsapp/{id}/media-upload`. */
export async function removeGreetingMedia(ctx: AppContext, by: AuthUser, id: number): Promise<Whatsapp> {
  await assertCanManage(ctx, by);
  const row = await connectionFor(ctx, by, id);
  const [updated] = await ctx.db.update(whatsapps).set({ greetingMediaAttachment: null }).where(eq(whatsapps.id, id)).returning();
  if (row.greetingMediaAttachment) await ctx.storage.remove(row.companyId, row.greetingMediaAttachment);
  if (!updated) throw new AppError('ERR_NO_WAPP_FOUND', 404);
  await emitWhatsapp(ctx, updated);
  return presentOne(ctx, by, updated);
}
