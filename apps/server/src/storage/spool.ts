import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** An upload written to a node-local file as it arrived: its size and first bytes (for type checks). */
export interface SpooledFile {
  path: string;
  size: number;
  head: Buffer;
}

const HEAD_BYTES = 64;

/** Files spooled by each request, removed once it is answered (saved ones were moved away already). */
const byRequest = new WeakMap<object, string[]>();

/**
 * Streams `source` into a new file of `dir`, chunk by chunk: an upload is never whole in
 * memory. `owner` (the request) gets the file removed by `discardSpools` after its answer.
 */
export async function spool(dir: string, source: Readable, owner: object): Promise<SpooledFile> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, randomBytes(16).toString('hex'));
  const files = byRequest.get(owner) ?? [];
  byRequest.set(owner, [...files, path]);
  let size = 0;
  let head = Buffer.alloc(0);
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
      done(null, chunk);
    },
  });
  await pipeline(source, meter, createWriteStream(path, { mode: 0o640 }));
  return { path, size, head };
}

/** Removes what `owner` spooled and did not store (refused, failed, or copied to the bucket). */
export async function discardSpools(owner: object): Promise<void> {
  const files = byRequest.get(owner);
  if (!files) return;
  byRequest.delete(owner);
  await Promise.all(files.map((path) => rm(path, { force: true })));
}
