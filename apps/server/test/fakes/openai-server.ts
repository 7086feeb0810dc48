import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OpenAiRequest {
  path: string;
  authorization: string | undefined;
  /** JSON requests parsed; multipart ones (transcriptions) as raw bytes. */
  json?: { model: string; messages: { role: string; content: string }[]; max_tokens?: number; temperature?: number };
  raw: Buffer;
}

/**
 * A local stand-in for the OpenAI API (our real `openai` SDK reaches it through
 * OPENAI_BASE_URL): chat completions and audio transcriptions, with the answers,
 * delays and failures a test sets.
 */
export class FakeOpenAi {
  readonly requests: OpenAiRequest[] = [];
  /** The assistant's answer to a chat completion, from the request. */
  reply: (req: NonNullable<OpenAiRequest['json']>) => string = () => 'Olá! Como posso ajudar?';
  transcript = 'quero saber o preço do plano';
  /** Every call answers this status (an error body) instead. */
  failWith?: number;
  delayMs = 0;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  /** OPENAI_BASE_URL for the app under test. */
  get url(): string {
    return `${this.origin}/v1`;
  }

  chats(): OpenAiRequest[] {
    return this.requests.filter((r) => r.path === '/v1/chat/completions');
  }

  transcriptions(): OpenAiRequest[] {
    return this.requests.filter((r) => r.path === '/v1/audio/transcriptions');
  }

  static async start(): Promise<FakeOpenAi> {
    const handlers: { fake?: FakeOpenAi } = {};
    const server = createServer((req, res) => void handlers.fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    handlers.fake = new FakeOpenAi(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return handlers.fake;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const path = new URL(req.url ?? '/', this.origin).pathname;
    const isJson = (req.headers['content-type'] ?? '').startsWith('application/json');
    const entry: OpenAiRequest = { path, authorization: req.headers.authorization, raw, json: isJson ? JSON.parse(raw.toString('utf8')) : undefined };
    this.requests.push(entry);
    const json = (status: number, payload: unknown) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.failWith) return json(this.failWith, { error: { message: 'The server had an error', type: 'server_error' } });
    if (path === '/v1/chat/completions' && entry.json) {
      const content = this.reply(entry.json);
      return json(200, {
        id: `chatcmpl-${this.requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: entry.json.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      });
    }
    if (path === '/v1/audio/transcriptions') return json(200, { text: this.transcript });
    json(404, { error: { message: `Unknown path ${path}`, type: 'invalid_request_error' } });
  }
}
