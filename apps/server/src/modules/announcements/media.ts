import type { Announcement } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../http/context.js';
import { randomFileName, readImageUpload, removeStoredImage } from '../../http/uploads.js';
import { findAnnouncementRow, saveAnnouncement } from './service.js';

/** An announcement image is a banner or a photo: 5 MB is plenty, like a branding image. */
export const ANNOUNCEMENT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Platform-wide, so stored at the root of the media storage (served at /public/{name}), not in a company folder. */
const PLATFORM = '';

/**
 * `POST /announcements/{id}/media-upload` (multipart `typeArch=announcements`, `file`): png or jpeg
 * only, checked by its bytes (spec 3 §5: .png, .jpg, .jpeg); replaces and removes the previous image.
 */
export async function uploadAnnouncementMedia(ctx: AppContext, id: number, req: FastifyRequest): Promise<Announcement> {
  const current = await findAnnouncementRow(ctx, id);
  const upload = await readImageUpload(req, { maxBytes: ANNOUNCEMENT_IMAGE_MAX_BYTES, accept: ['png', 'jpeg'] });
  const fileName = randomFileName('announcement', upload.type);
  await ctx.storage.put(fileName, upload.data);
  const saved = await saveAnnouncement(ctx, id, { mediaPath: fileName, mediaName: upload.fileName || fileName });
  await removeStoredImage(ctx.storage, PLATFORM, current.mediaPath);
  return saved;
}

/** `DELETE /announcements/{id}/media-upload`: the announcement keeps its text. */
export async function removeAnnouncementMedia(ctx: AppContext, id: number): Promise<Announcement> {
  const current = await findAnnouncementRow(ctx, id);
  const saved = await saveAnnouncement(ctx, id, { mediaPath: null, mediaName: null });
  await removeStoredImage(ctx.storage, PLATFORM, current.mediaPath);
  return saved;
}

/** After a delete: its image goes too. */
export async function removeAnnouncementFile(ctx: AppContext, mediaPath: string | null): Promise<void> {
  await removeStoredImage(ctx.storage, PLATFORM, mediaPath);
}
