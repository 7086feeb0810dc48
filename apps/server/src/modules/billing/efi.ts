import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { Config } from '../../config.js';
import { AppError } from '../../http/errors.js';

type EfiConfig = NonNullable<Config['billing']['efi']>;

/** The parts of an Efí immediate charge (`cob`) we read. */
export interface Cob {
  txid: string;
  status: string;
  valor: { original: string };
  loc: { id: number };
  pixCopiaECola?: string;
}

interface Reply {
  status: number;
  body: unknown;
}

/**
 * The Efí (Gerencianet) PIX API: OAuth2 client credentials, then `cob` calls with the bearer token,
 * over mutual TLS with the account's .p12 certificate (EFI_CERT_PATH) as Efí requires in production.
 * node:https rather than fetch, because fetch cannot present a client certificate without another package.
 */
export class EfiClient {
  private token: { value: string; expiresAt: number } | undefined;
  private readonly pfx: Buffer | undefined;

  constructor(private readonly config: EfiConfig) {
    this.pfx = config.certPath ? readFileSync(config.certPath) : undefined;
  }

  private send(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Reply> {
    const url = new URL(this.config.apiUrl + path);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const options: RequestOptions = {
      method,
      headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      timeout: 15_000,
      ...(this.pfx ? { pfx: this.pfx, passphrase: this.config.certPassword ?? '' } : {}),
    };
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(url, options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // Not JSON: kept as text for the error log.
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      req.on('timeout', () => req.destroy(new Error('Efí API timeout')));
      req.on('error', reject);
      req.end(payload);
    });
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    const basic = Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString('base64');
    const res = await this.send('POST', '/oauth/token', { authorization: `Basic ${basic}` }, { grant_type: 'client_credentials' });
    const body = res.body as { access_token?: string; expires_in?: number } | undefined;
    if (res.status !== 200 || !body?.access_token) throw new AppError('ERR_PAYMENT_PROVIDER', 502, `Efí OAuth answered ${res.status}`);
    // Renewed a minute early so a call never leaves with a token about to expire.
    this.token = { value: body.access_token, expiresAt: Date.now() + ((body.expires_in ?? 3600) - 60) * 1000 };
    return this.token.value;
  }

  private async call(method: string, path: string, body?: unknown): Promise<Reply> {
    try {
      return await this.send(method, path, { authorization: `Bearer ${await this.accessToken()}` }, body);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('ERR_PAYMENT_PROVIDER', 502, err instanceof Error ? err.message : 'Efí API unreachable');
    }
  }

  /** `PUT /v2/cob/{txid}`: an immediate charge of `amount` reais to our key, valid one hour. */
  async createCob(txid: string, charge: { chave: string; amount: number; description: string }): Promise<Cob> {
    const res = await this.call('PUT', `/v2/cob/${txid}`, {
      calendario: { expiracao: 3600 },
      valor: { original: charge.amount.toFixed(2) },
      chave: charge.chave,
      solicitacaoPagador: charge.description.slice(0, 140),
    });
    if (res.status !== 201 && res.status !== 200) throw new AppError('ERR_PAYMENT_PROVIDER', 502, `Efí cob answered ${res.status}`);
    return res.body as Cob;
  }

  /** `GET /v2/cob/{txid}`: the charge as the provider knows it, or undefined when it does not exist. */
  async getCob(txid: string): Promise<Cob | undefined> {
    const res = await this.call('GET', `/v2/cob/${encodeURIComponent(txid)}`);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw new AppError('ERR_PAYMENT_PROVIDER', 502, `Efí cob answered ${res.status}`);
    return res.body as Cob;
  }

  /** `GET /v2/loc/{id}/qrcode`: the BR Code of a charge's location (older API versions put it only here). */
  async locQrCode(locId: number): Promise<string> {
    const res = await this.call('GET', `/v2/loc/${locId}/qrcode`);
    const body = res.body as { qrcode?: string } | undefined;
    if (res.status !== 200 || !body?.qrcode) throw new AppError('ERR_PAYMENT_PROVIDER', 502, `Efí loc answered ${res.status}`);
    return body.qrcode;
  }
}
