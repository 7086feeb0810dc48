import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';

/** What the fake agent answers to a text: fulfilment messages, and whether the intent ends the conversation. */
export interface FakeIntent {
  displayName: string;
  replies: string[];
  endInteraction?: boolean;
}

export interface DetectIntentCall {
  project: string;
  session: string;
  text: string;
  languageCode: string;
}

const readJson = (req: IncomingMessage) =>
  new Promise<unknown>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
  });

/**
 * A local stand-in for Dialogflow ES (reached through DIALOGFLOW_API_URL): `POST
 * /v2/projects/{p}/agent/sessions/{s}:detectIntent`, accepted only with a bearer JWT signed by the
 * service account's private key (what google-auth-library makes of `jsonContent`). `intents` maps
 * a lowercase text to its intent; anything else is the fallback. `delayMs` makes it slow.
 */
export class FakeDialogflow {
  readonly calls: DetectIntentCall[] = [];
  intents = new Map<string, FakeIntent>();
  fallback: FakeIntent = { displayName: 'Default Fallback Intent', replies: ['Não entendi.'] };
  delayMs = 0;
  failWith: number | null = null;
  readonly serviceAccount: { type: string; project_id: string; private_key_id: string; private_key: string; client_email: string };
  private readonly publicKey: KeyObject;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    keys: { publicKey: KeyObject; privateKey: KeyObject },
  ) {
    this.publicKey = keys.publicKey;
    this.serviceAccount = {
      type: 'service_account',
      project_id: 'balcao-test',
      private_key_id: 'fake-key-1',
      private_key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: 'bot@balcao-test.iam.gserviceaccount.com',
    };
  }

  static async start(): Promise<FakeDialogflow> {
    const holder: { fake?: FakeDialogflow } = {};
    const server = createServer((req, res) => void holder.fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.fake = new FakeDialogflow(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, generateKeyPairSync('rsa', { modulusLength: 2048 }));
    return holder.fake;
  }

  get jsonContent(): string {
    return JSON.stringify(this.serviceAccount);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const match = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/:]+):detectIntent$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) return send(404, { error: { code: 404 } });
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    try {
      const { payload } = await jwtVerify(token ?? '', this.publicKey);
      if (payload.iss !== this.serviceAccount.client_email) throw new Error('wrong issuer');
    } catch {
      return send(401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
    }
    const body = (await readJson(req)) as { queryInput?: { text?: { text?: string; languageCode?: string } } } | undefined;
    const text = body?.queryInput?.text?.text ?? '';
    this.calls.push({ project: decodeURIComponent(match[1]!), session: decodeURIComponent(match[2]!), text, languageCode: body?.queryInput?.text?.languageCode ?? '' });
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.failWith) return send(this.failWith, { error: { code: this.failWith } });
    const intent = this.intents.get(text.trim().toLowerCase()) ?? this.fallback;
    send(200, {
      responseId: 'r-1',
      queryResult: {
        queryText: text,
        fulfillmentText: intent.replies[0] ?? '',
        fulfillmentMessages: intent.replies.map((t) => ({ text: { text: [t] } })),
        intent: { displayName: intent.displayName, endInteraction: intent.endInteraction ?? false },
      },
    });
  }
}
