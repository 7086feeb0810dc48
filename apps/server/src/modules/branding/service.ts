import { WHITELABEL_IMAGE_MODES, type PublicSettingKey, type WhitelabelKind } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { randomFileName, readImageUpload, removeStoredImage, type ImageType } from '../../http/uploads.js';
import { findSetting, upsertSetting } from '../settings/queries.js';
import { emitGlobalSetting } from '../settings/service.js';

/** Logos and backgrounds are small; a login background photo fits well under this. */
export const BRANDING_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

const ACCEPTED: Record<WhitelabelKind, readonly ImageType[]> = {
  logo: ['png', 'jpeg', 'gif', 'webp', 'ico'],
  login: ['png', 'jpeg', 'gif', 'webp'],
};

/** `mode` names the image: Light | Dark | Favicon (logo), Enter | Register (login), any case, or the setting key itself. */
function settingKeyOf(kind: WhitelabelKind, mode: string | undefined): PublicSettingKey {
  const modes: Record<string, PublicSettingKey> = WHITELABEL_IMAGE_MODES[kind];
  const wanted = (mode ?? '').trim();
  const key = modes[wanted.toLowerCase()] ?? Object.values(modes).find((k) => k === wanted);
  if (!key) {
    const allowed = Object.keys(modes).join(', ');
    throw new AppError('ERR_VALIDATION', 400, `mode must be one of ${allowed}`, [{ path: 'mode', message: `one of ${allowed}` }]);
  }
  return key;
}

/**
 * `POST /settings-whitelabel/{logo|login}` (multipart typeArch, mode, file): checks the
 * image by its bytes, stores it as `brand-<random>.<ext>` (platform-wide: served at /public/{name}), points the global
 * setting at it, removes the file it replaces and tells every open page. Answers the file name.
 */
export async function uploadBrandingImage(ctx: AppContext, kind: WhitelabelKind, req: FastifyRequest): Promise<string> {
  const upload = await readImageUpload(req, { maxBytes: BRANDING_UPLOAD_MAX_BYTES, accept: ACCEPTED[kind] });
  const key = settingKeyOf(kind, upload.fields.mode);
  const fileName = randomFileName('brand', upload.type);
  await ctx.storage.put(fileName, upload.data);

  const previous = await findSetting(ctx.db, key);
  const setting = await upsertSetting(ctx.db, key, fileName);
  if (!setting) throw new AppError('ERR_INTERNAL', 500);
  await removeStoredImage(ctx.storage, '', previous?.value);
  await emitGlobalSetting(ctx, setting);
  return fileName;
}
