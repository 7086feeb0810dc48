import type { Config } from '../../config.js';
import { AppError } from '../../http/errors.js';
import { EfiClient } from './efi.js';
import { newTxid, staticBrCode } from './pix.js';

/** A PIX charge for one invoice: its transaction id and the BR Code the payer copies or scans. */
export interface Charge {
  txid: string;
  brCode: string;
}

/**
 * One adapter for every way the platform gets paid. `efi` creates a charge and later confirms it;
 * `static` only prints the platform's own key: the super user confirms those payments by hand.
 */
export interface PaymentProvider {
  readonly kind: 'efi' | 'static';
  createCharge(invoice: { id: number; detail: string }, amount: number): Promise<Charge>;
  /** Whether the provider says this charge was paid, for at least `amount` (a webhook is only a hint). */
  isPaid(txid: string, amount: number): Promise<boolean>;
}

class EfiProvider implements PaymentProvider {
  readonly kind = 'efi';
  constructor(
    private readonly client: EfiClient,
    private readonly pixKey: string,
  ) {}

  async createCharge(invoice: { id: number; detail: string }, amount: number): Promise<Charge> {
    const txid = newTxid(invoice.id, 32);
    const cob = await this.client.createCob(txid, { chave: this.pixKey, amount, description: invoice.detail });
    return { txid, brCode: cob.pixCopiaECola ?? (await this.client.locQrCode(cob.loc.id)) };
  }

  async isPaid(txid: string, amount: number): Promise<boolean> {
    const cob = await this.client.getCob(txid);
    return cob !== undefined && cob.status === 'CONCLUIDA' && Number(cob.valor.original) >= amount;
  }
}

class StaticPixProvider implements PaymentProvider {
  readonly kind = 'static';
  constructor(private readonly pix: Config['billing']['pix']) {}

  async createCharge(invoice: { id: number }, amount: number): Promise<Charge> {
    if (!this.pix.key) throw new AppError('ERR_PAYMENT_NOT_CONFIGURED', 503);
    const txid = newTxid(invoice.id, 25);
    return { txid, brCode: staticBrCode({ ...this.pix, key: this.pix.key, amount, txid }) };
  }

  /** Nobody can vouch for a static payment but the super user: a webhook never confirms one. */
  async isPaid(): Promise<boolean> {
    return false;
  }
}

/** Efí when its credentials (and the receiving key) are set, else the static BR Code. */
export function paymentProvider(config: Config): PaymentProvider {
  const { efi, pix } = config.billing;
  if (efi && pix.key) return new EfiProvider(new EfiClient(efi), pix.key);
  return new StaticPixProvider(pix);
}
