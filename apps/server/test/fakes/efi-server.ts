import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStaticPix, hasError } from 'pix-utils';

export const EFI_CLIENT_ID = 'Client_Id_fake';
export const EFI_CLIENT_SECRET = 'Client_Secret_fake';
const TOKEN = 'fake-efi-access-token';

interface FakeCob {
  txid: string;
  status: 'ATIVA' | 'CONCLUIDA';
  valor: { original: string };
  chave: string;
  loc: { id: number };
  pixCopiaECola: string;
}

const readBody = (req: IncomingMessage) =>
  new Promise<unknown>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(text ? JSON.parse(text) : undefined);
    });
  });

/**
 * A local stand-in for the Efí PIX API (reached through EFI_API_URL): OAuth2 client credentials,
 * `PUT`/`GET /v2/cob/{txid}`, and `pay(txid)`, which concludes a charge and posts Efí's webhook
 * (`{ pix: [...] }`) to the given URL, as the provider does after a payment.
 */
export class FakeEfi {
  readonly cobs = new Map<string, FakeCob>();
  tokenRequests = 0;
  private nextLoc = 1;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(port = 0): Promise<FakeEfi> {
    const holder: { efi?: FakeEfi } = {};
    const server = createServer((req, res) => void holder.efi?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    holder.efi = new FakeEfi(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return holder.efi;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The payer paid: the charge concludes and the webhook reaches `webhookUrl` (answers its HTTP status). */
  async pay(txid: string, webhookUrl: string): Promise<number> {
    const cob = this.cobs.get(txid);
    if (!cob) throw new Error(`no charge ${txid}`);
    cob.status = 'CONCLUIDA';
    return this.sendWebhook(txid, webhookUrl);
  }

  /** Posts the webhook for a txid, paid or not (a replay, or a forgery when the charge is still open). */
  async sendWebhook(txid: string, webhookUrl: string): Promise<number> {
    const valor = this.cobs.get(txid)?.valor.original ?? '0.01';
    const res = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pix: [{ endToEndId: `E${Date.now()}`, txid, chave: 'pix@balcao.test', valor, horario: new Date().toISOString() }] }),
    });
    return res.status;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', this.url);
    const body = await readBody(req);
    if (req.method === 'GET' && url.pathname === '/__cobs') return send(200, [...this.cobs.values()]);
    if (req.method === 'POST' && url.pathname === '/__pay') {
      const { txid, webhookUrl } = body as { txid: string; webhookUrl: string };
      return send(200, { webhookStatus: await this.pay(txid, webhookUrl) });
    }
    if (req.method === 'POST' && url.pathname === '/oauth/token') {
      this.tokenRequests += 1;
      const basic = Buffer.from(`${EFI_CLIENT_ID}:${EFI_CLIENT_SECRET}`).toString('base64');
      if (req.headers.authorization !== `Basic ${basic}` || (body as { grant_type?: string })?.grant_type !== 'client_credentials') {
        return send(401, { error: 'invalid_client' });
      }
      return send(200, { access_token: TOKEN, token_type: 'Bearer', expires_in: 3600, scope: 'cob.write cob.read' });
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { nome: 'nao_autorizado' });
    const cobPath = /^\/v2\/cob\/([A-Za-z0-9]{26,35})$/.exec(url.pathname);
    if (cobPath && req.method === 'PUT') {
      const txid = cobPath[1]!;
      const { valor, chave } = body as { valor: { original: string }; chave: string };
      const pix = createStaticPix({ pixKey: chave, merchantName: 'Efi Fake', merchantCity: 'Ouro Preto', transactionAmount: Number(valor.original), txid: txid.slice(0, 25) });
      if (hasError(pix)) return send(400, { nome: 'valor_invalido' });
      const cob: FakeCob = { txid, status: 'ATIVA', valor, chave, loc: { id: this.nextLoc++ }, pixCopiaECola: pix.toBRCode() };
      this.cobs.set(txid, cob);
      return send(201, { ...cob, calendario: { criacao: new Date().toISOString(), expiracao: 3600 }, revisao: 0 });
    }
    if (cobPath && req.method === 'GET') {
      const cob = this.cobs.get(cobPath[1]!);
      return cob ? send(200, cob) : send(404, { nome: 'cobranca_nao_encontrada' });
    }
    send(404, { nome: 'not_found' });
  }
}
