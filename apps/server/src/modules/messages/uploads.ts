import type { MediaType } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';
import { baseMimetype, type MediaStorage } from '../../storage/media.js';
import type { SpooledFile } from '../../storage/spool.js';
import { cleanString } from '../../http/clean-input.js';

export interface UploadedFile {
  /** The file as streamed to this node's spool folder (removed after the answer unless stored). */
  data: SpooledFile;
  mimetype: string;
  originalName: string;
}

export interface MessageForm {
  /** Text fields by name, every value in arrival order (`body` comes once per file). */
  fields: Record<string, string[]>;
  files: UploadedFile[];
}

/**
 * Reads a multipart `POST /messages/{ticketId}`: files of the `medias` field (any field name is accepted)
 * up to `maxBytes` each (413 beyond), each streamed to the storage's spool folder, never whole in memory.
 */
export async function readMessageForm(req: FastifyRequest, storage: MediaStorage, maxBytes: number): Promise<MessageForm> {
  const fields: Record<string, string[]> = {};
  const files: UploadedFile[] = [];
  for await (const part of req.parts({ limits: { fileSize: maxBytes } })) {
    if (part.type === 'field') {
      (fields[part.fieldname] ??= []).push(cleanString(String(part.value)));
      continue;
    }
    const data = await storage.spool(part.file, req);
    // Past the limit busboy stops the stream short and marks it truncated.
    if (part.file.truncated) throw new AppError('ERR_FILE_TOO_LARGE', 413, `files up to ${Math.floor(maxBytes / (1024 * 1024))} MB`);
    files.push({ data, mimetype: baseMimetype(part.mimetype), originalName: part.filename });
  }
  return { fields, files };
}

/** Programs and scripts: refused whatever they claim to be (by type, name or first bytes). */
const EXECUTABLE_TYPES =
  /^application\/(x-(ms)?dos-?exec|x-msdownload|x-executable|x-elf|x-sharedlib|x-sh|x-shellscript|x-bat|x-msi|x-ms-installer|vnd\.microsoft\.portable-executable|java-archive|x-java-archive|vnd\.android\.package-archive|x-apple-diskimage|x-debian-package|x-rpm)$/;
const EXECUTABLE_NAMES = /\.(exe|msi|bat|cmd|com|scr|pif|cpl|dll|sys|sh|bash|ps1|psm1|vbs|vbe|js|mjs|jse|wsf|wsh|hta|jar|apk|app|dmg|deb|rpm|run|elf|lnk|reg)$/i;
/** Active content in a browser when served from our origin. */
const ACTIVE_TYPES = /^(text\/html|application\/xhtml|image\/svg|application\/(x-)?javascript|text\/javascript|application\/xml|text\/xml)/;

const startsWith = (data: Buffer, text: string) => data.subarray(0, text.length).toString('latin1') === text;
const looksExecutable = (data: Buffer) => startsWith(data, 'MZ') || startsWith(data, '\x7fELF') || startsWith(data, '#!');

/** The attachment's message type from its MIME family; executables and active content → 400 ERR_INVALID_MEDIA_TYPE. */
export function mediaTypeOf(file: Pick<UploadedFile, 'mimetype' | 'originalName'> & { data: Pick<SpooledFile, 'head'> | Buffer }): MediaType {
  const { mimetype } = file;
  // A spooled upload keeps its first bytes; a file fetched into memory (an integration's media reply) is its own head.
  const head = Buffer.isBuffer(file.data) ? file.data : file.data.head;
  if (
    !/^[a-z]+\/[a-z0-9.+-]+$/.test(mimetype) ||
    EXECUTABLE_TYPES.test(mimetype) ||
    ACTIVE_TYPES.test(mimetype) ||
    EXECUTABLE_NAMES.test(file.originalName) ||
    looksExecutable(head)
  ) {
    throw new AppError('ERR_INVALID_MEDIA_TYPE', 400, file.originalName);
  }
  const family = mimetype.split('/')[0];
  return family === 'image' || family === 'audio' || family === 'video' ? family : 'application';
}
