import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { AppError } from '../http/errors.js';
import type { S3MediaStore } from './s3.js';
import { spool, type SpooledFile } from './spool.js';

/** Extensions we write for each accepted MIME type; anything served from /public gets a harmless one. */
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/x-icon': '.ico',
  'image/heic': '.heic',
  'audio/ogg': '.ogg',
  'audio/mpeg': '.mp3',
  'audio/mp4': '.m4a',
  'audio/aac': '.aac',
  'audio/wav': '.wav',
  'audio/webm': '.weba',
  'video/mp4': '.mp4',
  'video/3gpp': '.3gp',
  'video/quicktime': '.mov',
  'video/webm': '.webm',
  'application/pdf': '.pdf',
  'application/zip': '.zip',
  'application/msword': '.doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
  'application/vnd.ms-excel': '.xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': '.xlsx',
  'application/vnd.ms-powerpoint': '.ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': '.pptx',
  'text/plain': '.txt',
  'text/csv': '.csv',
  'text/vcard': '.vcf',
  'application/octet-stream': '.bin',
};

/**
 * Types that would run as active content when served from our origin (stored XSS):
 * never written, whatever the channel or the upload claims.
 */
const REFUSED = /^(text\/html|application\/xhtml|image\/svg|application\/(x-)?javascript|text\/javascript|application\/xml|text\/xml)/;

/** "audio/ogg; codecs=opus" → "audio/ogg". */
export function baseMimetype(mimetype: string | undefined): string {
  return (mimetype ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
}

export interface SavedMedia {
  fileName: string;
  mimetype: string;
  size: number;
}

/**
 * Every file the API stores and serves under /public (issue 19): message media, avatars,
 * branding images, announcement images, contact pictures, file-list files. A file's key is
 * its path under /public: `company{id}/{file}` and `company{id}/contacts/{file}` for a
 * company's, a bare name for platform-wide ones (`brand-…`, `announcement-…`). Without a
 * bucket the key is a path in DATA_DIR/public; with `S3_BUCKET` it is the object key, so
 * URLs do not change and every API node reads and writes the same files.
 */
export class MediaStorage {
  constructor(
    private readonly dataDir: string,
    readonly limitBytes: number,
    private readonly bucket?: S3MediaStore,
  ) {}

  /** The key of a company's file (in its folder, not a sub-folder). */
  companyKey(companyId: number, fileName: string): string {
    return `company${companyId}/${basename(fileName)}`;
  }

  companyDir(companyId: number): string {
    return join(this.dataDir, 'public', `company${companyId}`);
  }

  pathOf(companyId: number, fileName: string): string {
    return this.localPath(this.companyKey(companyId, fileName));
  }

  /** DATA_DIR/public/{key}; a key that could leave that folder throws. */
  private localPath(key: string): string {
    if (!isSafeKey(key)) throw new Error(`unsafe media key: ${key}`);
    return join(this.dataDir, 'public', ...key.split('/'));
  }

  /** The public URL the API answers for a stored file. */
  url(apiUrl: string, companyId: number, fileName: string): string {
    return `${apiUrl}/public/company${companyId}/${encodeURIComponent(fileName)}`;
  }

  /** Where uploads are streamed to before they are checked and stored (node-local, same disk as the folder). */
  get spoolDir(): string {
    return join(this.dataDir, 'tmp', 'uploads');
  }

  /** Streams an upload to a spool file of this node (see `spool`). */
  spool(source: Readable, owner: object): Promise<SpooledFile> {
    return spool(this.spoolDir, source, owner);
  }

  /**
   * Writes a file under `key` (already checked by the caller). A spooled upload is moved
   * into the folder, or streamed to the bucket with its known length.
   */
  async put(key: string, data: Buffer | SpooledFile, type = mimetypeOfStored(key)): Promise<void> {
    if (this.bucket) {
      await this.bucket.put(key, Buffer.isBuffer(data) ? data : createReadStream(data.path), type, Buffer.isBuffer(data) ? data.length : data.size);
      return;
    }
    const path = this.localPath(key);
    await mkdir(dirname(path), { recursive: true });
    if (Buffer.isBuffer(data)) await writeFile(path, data, { mode: 0o640 });
    else await rename(data.path, path);
  }

  /** Removes a file from the bucket and the folder (it may predate the bucket); a missing one is no error. */
  async delete(key: string): Promise<void> {
    const path = this.localPath(key);
    if (this.bucket) await this.bucket.delete(key);
    await rm(path, { force: true });
  }

  /**
   * A stored file as a stream (what `/public/{key}` serves): from the bucket when there is
   * one (files written before it was set stay readable from the folder), else undefined.
   */
  async open(key: string): Promise<{ body: Readable; length?: number } | undefined> {
    if (!isSafeKey(key)) return undefined;
    const fromBucket = await this.bucket?.get(key);
    if (fromBucket) return fromBucket;
    const path = this.localPath(key);
    const info = await stat(path).catch(() => undefined);
    return info?.isFile() ? { body: createReadStream(path), length: info.size } : undefined;
  }

  /** A stored file's bytes (a channel sending it, a transcription reading it). */
  async readAll(key: string): Promise<Buffer> {
    const found = await this.open(key);
    if (!found) throw new Error(`media not found: ${key}`);
    return buffer(found.body);
  }

  /**
   * Checks size and type of message media, then stores it under a random name of the
   * company. Throws 413 / 400 for bad input.
   */
  async save(companyId: number, data: Buffer | SpooledFile, mimetype: string | undefined, originalName?: string): Promise<SavedMedia> {
    const type = baseMimetype(mimetype);
    const size = Buffer.isBuffer(data) ? data.length : data.size;
    if (size > this.limitBytes) throw new AppError('ERR_PAYLOAD_TOO_LARGE', 413);
    if (size === 0) throw new AppError('ERR_VALIDATION', 400, 'empty file');
    if (REFUSED.test(type) || !/^[a-z]+\/[a-z0-9.+-]+$/.test(type)) throw new AppError('ERR_INVALID_MEDIA_TYPE', 400);
    const ext = EXTENSIONS[type] ?? safeExtension(originalName);
    // Documents keep a readable form of their name after the random part: it is what the
    // conversation shows and what a download is saved as.
    const readable = /^(application|text)\//.test(type) ? readableName(originalName) : '';
    const fileName = `${randomBytes(16).toString('hex')}${readable ? `-${readable}` : ''}${ext}`;
    await this.put(this.companyKey(companyId, fileName), data, type);
    return { fileName, mimetype: type, size };
  }

  remove(companyId: number, fileName: string): Promise<void> {
    return this.delete(this.companyKey(companyId, fileName));
  }

  read(companyId: number, fileName: string): Promise<Buffer> {
    return this.readAll(this.companyKey(companyId, fileName));
  }

  /** A deleted company: its folder and, with a bucket, every object under `company{id}/` (run by the deletion job). */
  async removeCompany(companyId: number): Promise<void> {
    await rm(this.companyDir(companyId), { recursive: true, force: true });
    if (this.bucket) await this.bucket.deletePrefix(`company${companyId}/`);
  }

  get usesBucket(): boolean {
    return this.bucket !== undefined;
  }
}

/** A key of plain segments: no empty, `.` or `..` segment, no backslash or NUL. */
function isSafeKey(key: string): boolean {
  return key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..' && !/[\\\0]/.test(segment));
}

/** The original name without its extension, reduced to letters, digits, '_' and '-' (at most 60). */
function readableName(originalName: string | undefined): string {
  if (!originalName) return '';
  const base = basename(originalName, extname(originalName));
  return base
    .replace(/[^\p{L}\p{N}_-]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
}

/** The original extension when it is short and plain, never one a browser would execute. */
function safeExtension(originalName: string | undefined): string {
  const ext = originalName ? extname(originalName).toLowerCase() : '';
  if (!/^\.[a-z0-9]{1,8}$/.test(ext) || ACTIVE_EXTENSIONS.test(ext)) return '.bin';
  return ext;
}

/** Extensions a browser (or a desktop opening a download) may treat as a page, a script or a stylesheet. */
const ACTIVE_EXTENSIONS = /^\.(s?html?|xht(ml)?|mht(ml)?|svgz?|xslt?|xml|xsd|rdf|js|mjs|css|swf)$/;

/** The MIME type we wrote a file under, from the extension we gave it. */
export function mimetypeOfStored(fileName: string): string {
  const ext = extname(fileName).toLowerCase();
  return Object.entries(EXTENSIONS).find(([, e]) => e === ext)?.[0] ?? 'application/octet-stream';
}

/**
 * Headers for a file served from /public. Only images, audio and video of the types we
 * write are shown inline: a browser displays them and never runs them. Anything else
 * (documents, unknown types, a name some browser maps to HTML, XML or SVG) is a download
 * of opaque bytes. The sandbox CSP keeps even a mistaken inline document scriptless and
 * off the API origin, where the refresh cookie lives.
 */
export function publicFileHeaders(fileName: string): Record<string, string> {
  const type = mimetypeOfStored(fileName);
  const inline = /^(image|audio|video)\//.test(type);
  return {
    'Content-Type': inline ? type : 'application/octet-stream',
    ...(inline ? {} : { 'Content-Disposition': 'attachment' }),
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'X-Content-Type-Options': 'nosniff',
  };
}
