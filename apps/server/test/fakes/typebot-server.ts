import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TypebotCall {
  kind: 'start' | 'continue';
  /** The slug (start) or the session id (continue). */
  target: string;
  text: string;
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d6a0a30000000049454e44ae426082', 'hex');
const text = (t: string) => ({ id: 'm', type: 'text', content: { type: 'richText', richText: [{ type: 'p', children: [{ text: t }] }] } });

/**
 * A local stand-in for Typebot's public chat API (the integration's urlN8N): startChat greets with a
 * text, an image (served at /logo.png) and a choice input (Vendas, Suporte); continueChat accepts '1',
 * '2' or the choice's text, and answers nothing new (the input again) to anything else.
 */
export class FakeTypebot {
  readonly calls: TypebotCall[] = [];
  private sessions = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeTypebot> {
    const holder: { fake?: FakeTypebot } = {};
    const server = createServer((req, res) => void holder.fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.fake = new FakeTypebot(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return holder.fake;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url === '/logo.png') {
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { message?: { text?: string } };
    const said = body.message?.text ?? '';
    const send = (status: number, json: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    };
    const choices = { type: 'choice input', items: [{ id: 'a', content: 'Vendas' }, { id: 'b', content: 'Suporte' }] };
    const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(req.url ?? '');
    if (req.method === 'POST' && start) {
      this.calls.push({ kind: 'start', target: decodeURIComponent(start[1]!), text: said });
      this.sessions += 1;
      return send(200, { sessionId: `sess-${this.sessions}`, messages: [text('Olá! Escolha:'), { id: 'i', type: 'image', content: { url: `${this.url}/logo.png` } }], input: choices });
    }
    const cont = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(req.url ?? '');
    if (req.method === 'POST' && cont) {
      this.calls.push({ kind: 'continue', target: decodeURIComponent(cont[1]!), text: said });
      const picked = ['1', 'vendas'].includes(said.toLowerCase()) ? 'Vendas' : ['2', 'suporte'].includes(said.toLowerCase()) ? 'Suporte' : null;
      return send(200, picked ? { messages: [text(`Você escolheu ${picked}`)] } : { messages: [], input: choices });
    }
    send(404, { message: 'not found' });
  }
}
