import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { Config } from '../config.js';
import { AppError } from '../http/errors.js';

/**
 * Media in an S3-compatible bucket (issue 19): every API node reads and writes the same
 * files. Keys are the paths under /public (`company{id}/{fileName}`), so URLs do not change.
 */
export class S3MediaStore {
  private readonly client: S3Client;

  constructor(private readonly s3: NonNullable<Config['s3']>) {
    this.client = new S3Client({
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: s3.forcePathStyle,
      credentials: s3.accessKeyId && s3.secretAccessKey ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } : undefined,
    });
  }

  async put(key: string, body: Buffer | Readable, contentType: string, length?: number): Promise<void> {
    await this.call(() => this.client.send(new PutObjectCommand({ Bucket: this.s3.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: length })));
  }

  /** The object as a stream, or undefined when there is none. */
  async get(key: string): Promise<{ body: Readable; length?: number } | undefined> {
    try {
      const res = await this.call(() => this.client.send(new GetObjectCommand({ Bucket: this.s3.bucket, Key: key })));
      return { body: res.Body as Readable, length: res.ContentLength };
    } catch (err) {
      if (err instanceof AppError && isMissing(err.cause)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.call(() => this.client.send(new DeleteObjectCommand({ Bucket: this.s3.bucket, Key: key })));
  }

  /**
   * Deletes every object whose key starts with `prefix` (a deleted company's `company{id}/`):
   * each listed page (up to 1000 keys) in one `DeleteObjects` request. A key the store could
   * not delete throws, so the caller's job retries (listing again finds what is left).
   */
  async deletePrefix(prefix: string): Promise<number> {
    let deleted = 0;
    let token: string | undefined;
    do {
      const page = await this.call(() => this.client.send(new ListObjectsV2Command({ Bucket: this.s3.bucket, Prefix: prefix, ContinuationToken: token })));
      const keys = (page.Contents ?? []).flatMap(({ Key }) => (Key ? [{ Key }] : []));
      if (keys.length > 0) {
        const res = await this.call(() => this.client.send(new DeleteObjectsCommand({ Bucket: this.s3.bucket, Delete: { Objects: keys, Quiet: true } })));
        const failed = res.Errors ?? [];
        if (failed.length > 0) throw new Error(`could not delete ${failed.length} objects under ${prefix}: ${failed[0]?.Code ?? ''} ${failed[0]?.Key ?? ''}`);
        deleted += keys.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return deleted;
  }

  /**
   * Runs a request to the store; a failure (store down, throttling past the SDK's own retries, bad
   * credentials) becomes 503 ERR_STORAGE_UNAVAILABLE for the request, with the SDK's error as
   * its cause (logged by the error handler, never answered to the client).
   */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      throw new AppError('ERR_STORAGE_UNAVAILABLE', 503, undefined, undefined, { cause: err });
    }
  }

  close(): void {
    this.client.destroy();
  }
}

/** S3's answer for a key it does not hold. */
function isMissing(err: unknown): boolean {
  return err instanceof NoSuchKey || (err as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode === 404;
}
