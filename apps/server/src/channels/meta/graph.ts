import http from 'node:http';
import https from 'node:https';
import { ChannelSendError } from '../adapter.js';

/** An error answer of the Graph API (`{error:{code, error_subcode, message}}`), or a transport failure. */
export class GraphError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: number,
    readonly subcode?: number,
  ) {
    super(message);
    this.name = 'GraphError';
  }

  /**
   * Retrying cannot help: bad/expired token (190), outside the messaging window (10),
   * missing permission (200-299), unknown recipient (100, 551). Branch on codes, never
   * on the localized text. Rate limits (4, 32, 613) and server errors are transient.
   */
  get permanent(): boolean {
    if (this.status === 0 || this.status >= 500 || this.status === 429) return false;
    if (this.code === undefined) return this.status >= 400 && this.status < 500;
    if ([1, 2, 4, 17, 32, 613].includes(this.code)) return false;
    return true;
  }

  toSendError(): ChannelSendError {
    return new ChannelSendError(`Graph API ${this.status} code ${this.code ?? '-'}/${this.subcode ?? '-'}: ${this.message}`, this.permanent);
  }
}

type Params = Record<string, string | undefined>;

/**
 * One API call over node:http(s) on its default keep-alive agent, the whole exchange bounded by
 * `timeoutMs`. `fetch` (undici's WHATWG request/response streams, an AbortSignal per call) cost about 1 ms
 * of CPU per Send API call in the messages API bench (docs/BENCHMARKS.md, first17d), a third of the request's
 * Node time. Rejects with an error named `TimeoutError` when the time runs out.
 * A kept-alive connection the server closed just as we reused it fails before an answer (ECONNRESET,
 * EPIPE): the request goes once more, on a new connection, instead of failing the send into the outbox's
 * seconds of backoff. (A server that took the request and then reset the connection would see it twice:
 * the Send API's known limit, docs/messages-api.md.)
 */
function exchange(url: URL, method: 'GET' | 'POST', body: string | undefined, timeoutMs: number, retried = false): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? undefined : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    let answered = false;
    const req = (url.protocol === 'https:' ? https : http).request(url, { method, headers }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', fail);
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('the Graph API did not answer in time'), { name: 'TimeoutError' })), timeoutMs);
    function fail(err: Error) {
      clearTimeout(timer);
      reject(err);
    }
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (!retried && !answered && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
        clearTimeout(timer);
        exchange(url, method, body, timeoutMs, true).then(resolve, reject);
      } else fail(err);
    });
    req.end(body);
  });
}

/**
 * The Graph API over node:http(s) (downloads over fetch), rooted at GRAPH_API_URL (version included, e.g.
 * https://graph.facebook.com/v21.0) so tests and the benchmark point it at a local fake.
 * Tokens travel as query parameters and never appear in errors or logs.
 */
export class GraphClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {}

  get<T>(path: string, params: Params): Promise<T> {
    return this.request<T>('GET', path, params);
  }

  post<T>(path: string, params: Params, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, params, body);
  }

  /** Downloads an attachment URL Meta gave us (CDN), within a size limit. */
  async download(url: string, limitBytes: number): Promise<{ data: Buffer; mimetype: string }> {
    const res = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs * 3) });
    if (!res.ok) throw new GraphError(`download failed`, res.status);
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > limitBytes) throw new GraphError('attachment too large', 413);
    const data = Buffer.from(await res.arrayBuffer());
    if (data.length > limitBytes) throw new GraphError('attachment too large', 413);
    return { data, mimetype: res.headers.get('content-type') ?? 'application/octet-stream' };
  }

  private async request<T>(method: 'GET' | 'POST', path: string, params: Params, body?: unknown): Promise<T> {
    const url = new URL(`${this.baseUrl}/${path.replace(/^\/+/, '')}`);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
    let res: { status: number; text: string };
    try {
      res = await exchange(url, method, body === undefined ? undefined : JSON.stringify(body), this.timeoutMs);
    } catch (err) {
      throw new GraphError(`Graph API unreachable: ${(err as Error).name}`, 0);
    }
    let json: unknown;
    try {
      json = res.text ? JSON.parse(res.text) : {};
    } catch {
      throw new GraphError('Graph API answered something that is not JSON', res.status || 502);
    }
    const error = (json as { error?: { message?: string; code?: number; error_subcode?: number } }).error;
    if (res.status < 200 || res.status > 299 || error) throw new GraphError(error?.message ?? `HTTP ${res.status}`, res.status, error?.code, error?.error_subcode);
    return json as T;
  }
}
