import { AVATAR_MAX_SIDE_PX, type User } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import sharp from 'sharp';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { randomFileName, readImageUpload, removeStoredImage } from '../../http/uploads.js';
import { setProfileImage } from './service.js';

/** Larger uploads are refused before decoding (the stored avatar itself is a few KiB). */
export const AVATAR_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

/** Scales to a longest side of at most 240 px (never up), applies the EXIF rotation, re-encodes as JPEG. */
async function toAvatarJpeg(data: Buffer): Promise<Buffer> {
  try {
    return await sharp(data)
      .rotate()
      .resize({ width: AVATAR_MAX_SIDE_PX, height: AVATAR_MAX_SIDE_PX, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch {
    throw new AppError('ERR_INVALID_IMAGE', 400, 'the image could not be read');
  }
}

/**
 * `POST /users/{id}/media-upload`: the caller's own avatar only, stored as
 * `company{companyId}/avatar-<random>.jpg` in the media storage; `profileImage` holds the file name.
 */
export async function uploadAvatar(ctx: AppContext, by: AuthUser, userId: number, req: FastifyRequest): Promise<User> {
  if (userId !== by.id) throw new AppError('ERR_NO_PERMISSION', 403, 'only your own avatar');
  const upload = await readImageUpload(req, { maxBytes: AVATAR_UPLOAD_MAX_BYTES, accept: ['jpeg', 'png', 'gif', 'webp'] });
  const jpeg = await toAvatarJpeg(upload.data);
  const fileName = randomFileName('avatar', 'jpeg');
  await ctx.storage.put(ctx.storage.companyKey(by.companyId, fileName), jpeg);
  const { user, previous } = await setProfileImage(ctx, by, fileName);
  await removeStoredImage(ctx.storage, `company${by.companyId}`, previous);
  return user;
}
