import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TtsRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  ssml: string;
}

/** The start of an Ogg/Opus stream: what the fake answers as the synthesised voice. */
export const OGG_AUDIO = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60, 7)]);

/** A local stand-in for Azure's text-to-speech REST endpoint (reached through AZURE_SPEECH_URL). */
export class FakeAzureTts {
  readonly requests: TtsRequest[] = [];
  failWith?: number;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeAzureTts> {
    const handlers: { fake?: FakeAzureTts } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const fake = handlers.fake!;
        fake.requests.push({ path: req.url ?? '/', headers: req.headers, ssml: Buffer.concat(chunks).toString('utf8') });
        if (fake.failWith || req.url !== '/cognitiveservices/v1') {
          res.writeHead(fake.failWith ?? 404);
          return res.end();
        }
        res.writeHead(200, { 'content-type': 'audio/ogg' });
        res.end(OGG_AUDIO);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    handlers.fake = new FakeAzureTts(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return handlers.fake;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
