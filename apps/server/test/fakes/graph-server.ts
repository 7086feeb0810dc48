import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixture } from '../fixtures.js';

export interface GraphRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  /** When it arrived (Date.now()): the pacing bench measures the intervals between sends. */
  at: number;
}

/** A 1×1 PNG, served as an attachment. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * A local stand-in for the Graph API (our real client reaches it through
 * GRAPH_API_URL): OAuth exchange, /me/accounts, subscribed_apps, the Send API,
 * user profiles and attachment downloads, answering the recorded responses.
 */
export class FakeGraph {
  readonly requests: GraphRequest[] = [];
  /** The next N Send API calls answer 500 (transient). */
  sendFailures = 0;
  /** When set, user profiles carry this picture link instead of the recorded CDN one (a local fake CDN in tests). */
  profilePic?: string;
  /** When set, every Send API call answers this (e.g. a permanent Graph error). */
  sendError?: { status: number; body: unknown };
  /** Each Send API call answers after this delay (sends in flight when a test stops the server). */
  sendDelayMs = 0;
  private sent = 0;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  /** GRAPH_API_URL for the app under test. */
  get url(): string {
    return `${this.origin}/v21.0`;
  }

  /** An attachment URL this fake serves (a PNG). */
  mediaUrl(name = 'image.png'): string {
    return `${this.origin}/media/${name}`;
  }

  sends(): GraphRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v21.0/me/messages');
  }

  static async start(port = 0): Promise<FakeGraph> {
    const handlers: { graph?: FakeGraph } = {};
    const server = createServer((req, res) => void handlers.graph?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const bound = (server.address() as AddressInfo).port;
    handlers.graph = new FakeGraph(server, `http://127.0.0.1:${bound}`);
    return handlers.graph;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body, at: Date.now() });
    const json = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    const p = url.pathname;

    if (p.startsWith('/media/')) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
      res.end(PNG);
      return;
    }
    // A user token naming `page-<id>` owns just that Page: tests that need a Page no other company holds.
    const ownPage = /page-(\d+)/.exec(url.searchParams.get('fb_exchange_token') ?? url.searchParams.get('access_token') ?? '')?.[1];
    if (p === '/v21.0/oauth/access_token') {
      return json(200, ownPage ? { access_token: `long-lived-page-${ownPage}`, token_type: 'bearer', expires_in: 5183944 } : fixture('meta/graph-responses/oauth-access-token.json'));
    }
    if (p === '/v21.0/me/accounts') {
      if (ownPage) return json(200, { data: [{ id: ownPage, name: `Página ${ownPage}`, access_token: `page-token-${ownPage}`, tasks: ['MESSAGING'] }] });
      return json(200, fixture('meta/graph-responses/me-accounts.json'));
    }
    if (/^\/v21\.0\/\d+\/subscribed_apps$/.test(p)) return json(200, fixture('meta/graph-responses/page-subscribed-apps-post.json'));
    if (p === '/v21.0/me/messages' && req.method === 'POST') {
      if (this.sendDelayMs) await new Promise((r) => setTimeout(r, this.sendDelayMs));
      if (this.sendError) return json(this.sendError.status, this.sendError.body);
      if (this.sendFailures > 0) {
        this.sendFailures -= 1;
        return json(500, { error: { message: 'An unknown error has occurred.', type: 'OAuthException', code: 1 } });
      }
      this.sent += 1;
      const recipient = (body as { recipient?: { id?: string } })?.recipient?.id ?? '';
      return json(200, { recipient_id: recipient, message_id: `m_fake_${this.sent}` });
    }
    if (/^\/v21\.0\/\d+$/.test(p) && req.method === 'GET') {
      const fields = url.searchParams.get('fields') ?? '';
      const profile = fields.includes('username')
        ? fixture('meta/graph-responses/user-profile-instagram.json')
        : fixture('meta/graph-responses/user-profile-messenger.json');
      return json(200, this.profilePic ? { ...(profile as object), profile_pic: this.profilePic } : profile);
    }
    json(404, { error: { message: 'Unknown path', code: 803 } });
  }
}
