import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import type { MediaStorage } from '../storage/media.js';
import { cleanString } from './clean-input.js';

export type ImageType = 'jpeg' | 'png' | 'gif' | 'webp' | 'ico';

const EXTENSIONS: Record<ImageType, string> = { jpeg: '.jpg', png: '.png', gif: '.gif', webp: '.webp', ico: '.ico' };

const startsWith = (data: Buffer, bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);

/**
 * The image type from the file's first bytes; the declared mimetype and name are not trusted.
 * SVG is never accepted: served from the API origin it could run scripts.
 */
export function sniffImage(data: Buffer): ImageType | undefined {
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(data, [0x47, 0x49, 0x46, 0x38]) && (data[4] === 0x37 || data[4] === 0x39) && data[5] === 0x61) return 'gif';
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  if (startsWith(data, [0x00, 0x00, 0x01, 0x00]) && data.length > 6) return 'ico';
  return undefined;
}

export interface ImageUpload {
  data: Buffer;
  type: ImageType;
  /** The name the file was uploaded with ('' when none). */
  fileName: string;
  /** The text fields of the form (typeArch, mode, …). */
  fields: Record<string, string>;
}

/**
 * Reads a multipart form holding one image file (any field name) and its text fields.
 * Past `maxBytes` → 413 ERR_FILE_TOO_LARGE; no file or not one of `accept` → 400 ERR_INVALID_IMAGE.
 * Nothing is written here: callers store only what passed.
 */
export async function readImageUpload(req: FastifyRequest, opts: { maxBytes: number; accept: readonly ImageType[] }): Promise<ImageUpload> {
  const fields: Record<string, string> = {};
  let data: Buffer | undefined;
  let fileName = '';
  for await (const part of req.parts({ limits: { fileSize: opts.maxBytes, files: 1 } })) {
    if (part.type === 'field') {
      fields[part.fieldname] = cleanString(String(part.value));
      continue;
    }
    fileName = cleanString(part.filename ?? '').slice(0, 200);
    try {
      data = await part.toBuffer();
    } catch (err) {
      if ((err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new AppError('ERR_FILE_TOO_LARGE', 413, `files up to ${Math.floor(opts.maxBytes / 1024)} KiB`);
      }
      throw err;
    }
  }
  const type = data ? sniffImage(data) : undefined;
  if (!data || !type || !opts.accept.includes(type)) throw new AppError('ERR_INVALID_IMAGE', 400, `expected an image (${opts.accept.join(', ')})`);
  return { data, type, fileName, fields };
}

/** An unguessable file name with the extension of its real type. */
export function randomFileName(prefix: string, type: ImageType): string {
  return `${prefix}-${randomBytes(16).toString('hex')}${EXTENSIONS[type]}`;
}

/** The server's built-in images (`apps/server/public/app`), served at /public/app/. */
export const builtinImagesDir = fileURLToPath(new URL('../../public/app', import.meta.url));

/** DATA_DIR/public (served at /public/), or a folder inside it. */
export function publicDir(dataDir: string, ...parts: string[]): string {
  return join(dataDir, 'public', ...parts);
}

/**
 * Removes an image we stored earlier in `folder` (a key prefix such as `company3`, '' for
 * platform files); a name that is not one of ours (path, empty) is left alone.
 */
export async function removeStoredImage(storage: MediaStorage, folder: string, fileName: string | null | undefined): Promise<void> {
  if (!fileName || !/^[a-z]+-[0-9a-f]{32}\.[a-z]+$/.test(fileName)) return;
  await storage.delete(folder ? `${folder}/${fileName}` : fileName);
}
