import { createServer, type Server } from 'node:http';

/**
 * The payload of an `aws-chunked` body (what the SDK sends for a stream with a checksum
 * trailer): `<hex size>[;chunk-signature=…]\r\n<bytes>\r\n` … up to a zero-size chunk.
 */
function decodeAwsChunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    const size = parseInt(raw.subarray(at, eol).toString('latin1').split(';')[0]!, 16);
    if (!size) return Buffer.concat(parts);
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/**
 * A small stand-in for the S3 API at the network boundary (path style: `/{bucket}/{key}`):
 * PUT, GET, HEAD and DELETE of objects, ListObjectsV2 and DeleteObjects, kept in memory. Signatures are not checked.
 */
export class FakeS3 {
  readonly objects = new Map<string, { body: Buffer; type: string }>();
  readonly requests: { method: string; path: string }[] = [];
  /** While true every request answers 503 (an unreachable or overloaded store). */
  failing = false;
  /** Keys per ListObjectsV2 page (S3's is 1000); lower it to exercise paging. */
  listPageSize = 1000;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeS3> {
    const holder: { fake?: FakeS3 } = {};
    const server = createServer((req, res) => {
      const fake = holder.fake;
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      fake!.requests.push({ method: req.method ?? '', path });
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (fake!.failing) {
          res.writeHead(503, { 'content-type': 'application/xml' });
          res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
          return;
        }
        const object = fake!.objects.get(path);
        const query = new URL(req.url ?? '/', 'http://x').searchParams;
        if (req.method === 'GET' && query.get('list-type') === '2') {
          // ListObjectsV2 of `/{bucket}?prefix=`, in key order; the continuation token is the
          // last key returned (so deleting listed keys between pages skips nothing, as on S3).
          const bucket = path.replace(/\/$/, '');
          const prefix = `${bucket}/${query.get('prefix') ?? ''}`;
          const after = query.get('continuation-token') ?? '';
          const all = [...fake!.objects.keys()]
            .filter((k) => k.startsWith(prefix))
            .map((k) => k.slice(bucket.length + 1))
            .sort()
            .filter((k) => k > after);
          const keys = all.slice(0, fake!.listPageSize);
          const truncated = all.length > keys.length;
          res.writeHead(200, { 'content-type': 'application/xml' });
          res.end(
            `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><IsTruncated>${truncated}</IsTruncated><KeyCount>${keys.length}</KeyCount>` +
              keys.map((k) => `<Contents><Key>${k}</Key></Contents>`).join('') +
              (truncated ? `<NextContinuationToken>${keys.at(-1)}</NextContinuationToken>` : '') +
              '</ListBucketResult>',
          );
          return;
        }
        if (req.method === 'POST' && query.has('delete')) {
          // DeleteObjects: `<Delete><Object><Key>…</Key></Object>…</Delete>`; quiet, so no per-key answer.
          const bucket = path.replace(/\/$/, '');
          const keys = [...Buffer.concat(chunks).toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]!);
          for (const key of keys) fake!.objects.delete(`${bucket}/${key}`);
          res.writeHead(200, { 'content-type': 'application/xml' });
          res.end('<?xml version="1.0" encoding="UTF-8"?><DeleteResult></DeleteResult>');
          return;
        }
        if (req.method === 'PUT') {
          const raw = Buffer.concat(chunks);
          const chunked = String(req.headers['x-amz-content-sha256'] ?? '').startsWith('STREAMING-');
          fake!.objects.set(path, { body: chunked ? decodeAwsChunked(raw) : raw, type: req.headers['content-type'] ?? 'application/octet-stream' });
          res.writeHead(200, { etag: '"fake"' }).end();
        } else if (req.method === 'DELETE') {
          fake!.objects.delete(path);
          res.writeHead(204).end();
        } else if (!object) {
          res.writeHead(404, { 'content-type': 'application/xml' });
          res.end(req.method === 'HEAD' ? undefined : '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>');
        } else {
          res.writeHead(200, { 'content-type': object.type, 'content-length': object.body.length });
          res.end(req.method === 'HEAD' ? undefined : object.body);
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    holder.fake = new FakeS3(server, `http://127.0.0.1:${(server.address() as { port: number }).port}`);
    return holder.fake;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** The server's settings that point its media storage at this fake's `bucket`. */
export function s3Env(s3: FakeS3, bucket: string): Record<string, string> {
  return { S3_BUCKET: bucket, S3_ENDPOINT: s3.url, S3_ACCESS_KEY_ID: 'test-key', S3_SECRET_ACCESS_KEY: 'test-secret', S3_FORCE_PATH_STYLE: 'true' };
}
