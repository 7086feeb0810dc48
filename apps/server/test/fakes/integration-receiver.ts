import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the receiver answers to the next POSTs: a status, a raw body, after a delay. */
export interface ReceiverAnswer {
  status?: number;
  body?: unknown;
  raw?: string;
  delayMs?: number;
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d6a0a30000000049454e44ae426082', 'hex');

/**
 * A local stand-in for an n8n flow or a webhook (the integration's `urlN8N` points at `/hook`):
 * it records every JSON body it receives and answers `answer` (or each of `queue` in turn). It
 * also serves `/media/logo.png`, for replies that carry a `mediaUrl`.
 */
export class FakeReceiver {
  readonly received: unknown[] = [];
  answer: ReceiverAnswer = { body: { text: 'ok' } };
  readonly queue: ReceiverAnswer[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(port = 0): Promise<FakeReceiver> {
    const holder: { fake?: FakeReceiver } = {};
    const server = createServer((req, res) => void holder.fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    holder.fake = new FakeReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return holder.fake;
  }

  get hookUrl(): string {
    return `${this.url}/hook`;
  }

  get mediaUrl(): string {
    return `${this.url}/media/logo.png`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url === '/media/logo.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG);
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      this.received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch {
      this.received.push(undefined);
    }
    const answer = this.queue.shift() ?? this.answer;
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(answer.raw ?? JSON.stringify(answer.body ?? {}));
  }
}
