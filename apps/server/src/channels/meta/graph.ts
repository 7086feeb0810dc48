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
 * The Graph API over fetch, rooted at GRAPH_API_URL (version included, e.g.
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
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: body === undefined ? undefined : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new GraphError(`Graph API unreachable: ${(err as Error).name}`, 0);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      throw new GraphError('Graph API answered something that is not JSON', res.status || 502);
    }
    const error = (json as { error?: { message?: string; code?: number; error_subcode?: number } }).error;
    if (!res.ok || error) throw new GraphError(error?.message ?? `HTTP ${res.status}`, res.status, error?.code, error?.error_subcode);
    return json as T;
  }
}
