import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
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
 * Media files under DATA_DIR/public/company{id}/ with unguessable names (served by /public),
 * or with `S3_BUCKET` the same paths as keys of the bucket (several API nodes share it).
 */
export class MediaStorage {
  constructor(
    private readonly dataDir: string,
    readonly limitBytes: number,
    private readonly bucket?: S3MediaStore,
  ) {}

  /** The bucket key of a file: its path under /public. */
  private key(companyId: number, fileName: string): string {
    return `company${companyId}/${basename(fileName)}`;
  }

  companyDir(companyId: number): string {
    return join(this.dataDir, 'public', `company${companyId}`);
  }

  pathOf(companyId: number, fileName: string): string {
    return join(this.companyDir(companyId), basename(fileName));
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
   * Checks size and type, then writes under a random name. Throws 413 / 400 for bad input.
   * A spooled upload is moved into the folder, or streamed to the bucket with its known length.
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
    if (this.bucket) {
      await this.bucket.put(this.key(companyId, fileName), Buffer.isBuffer(data) ? data : createReadStream(data.path), type, size);
    } else {
      await mkdir(this.companyDir(companyId), { recursive: true });
      if (Buffer.isBuffer(data)) await writeFile(this.pathOf(companyId, fileName), data, { mode: 0o640 });
      else await rename(data.path, this.pathOf(companyId, fileName));
    }
    return { fileName, mimetype: type, size };
  }

  async remove(companyId: number, fileName: string): Promise<void> {
    if (this.bucket) await this.bucket.delete(this.key(companyId, fileName));
    await rm(this.pathOf(companyId, fileName), { force: true });
  }

  /** A deleted company: its folder and, with a bucket, every object under `company{id}/`. */
  async removeCompany(companyId: number): Promise<void> {
    await rm(this.companyDir(companyId), { recursive: true, force: true });
    if (this.bucket) await this.bucket.deletePrefix(`company${companyId}/`);
  }

  /** A stored file's bytes (a channel sending it). */
  async read(companyId: number, fileName: string): Promise<Buffer> {
    if (!this.bucket) return readFile(this.pathOf(companyId, fileName));
    const object = await this.bucket.get(this.key(companyId, fileName));
    if (!object) throw new Error(`media not found: ${this.key(companyId, fileName)}`);
    return buffer(object.body);
  }

  /**
   * A stored file as a stream for `/public/company{id}/{file}`: from the bucket when there is
   * one (files written before it was set stay readable from the folder), else undefined.
   */
  async open(companyId: number, fileName: string): Promise<{ body: Readable; length?: number } | undefined> {
    const fromBucket = await this.bucket?.get(this.key(companyId, fileName));
    if (fromBucket) return fromBucket;
    const path = this.pathOf(companyId, fileName);
    const info = await stat(path).catch(() => undefined);
    return info?.isFile() ? { body: createReadStream(path), length: info.size } : undefined;
  }

  get usesBucket(): boolean {
    return this.bucket !== undefined;
  }
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
