import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The receiver at the network boundary: records every request; `failures[path]` answers 500 that many times first. */
export class Receiver {
  readonly received: Received[] = [];
  readonly failures: Record<string, number> = {};
  private server: Server | undefined;
  url = '';

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => receiver.answer(req.url ?? '/', req.headers, body, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    receiver.server = server;
    receiver.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return receiver;
  }

  private answer(path: string, headers: IncomingHttpHeaders, body: string, res: ServerResponse): void {
    this.received.push({ path, headers, body });
    const left = this.failures[path] ?? 0;
    if (left > 0) {
      this.failures[path] = left - 1;
      res.writeHead(500).end('receiver down');
    } else res.writeHead(200).end('ok');
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
