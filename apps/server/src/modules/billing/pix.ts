import { randomBytes } from 'node:crypto';
import { createStaticPix, hasError } from 'pix-utils';
import { AppError } from '../../http/errors.js';

/** Transaction ids are letters and digits only: up to 25 in a static BR Code, 26 to 35 for an Efí charge. */
export function newTxid(invoiceId: number, length: 25 | 32): string {
  const prefix = `BALCAO${invoiceId}X`;
  return (prefix + randomBytes(24).toString('hex').toUpperCase()).slice(0, length);
}

/**
 * A static PIX BR Code (EMV payload: the key in the merchant account info, amount, merchant name and city,
 * the txid, CRC16-CCITT), for the platform's own key when no charge provider is configured.
 */
export function staticBrCode(params: { key: string; merchantName: string; merchantCity: string; amount: number; txid: string }): string {
  const pix = createStaticPix({
    pixKey: params.key,
    merchantName: params.merchantName,
    merchantCity: params.merchantCity,
    transactionAmount: params.amount,
    txid: params.txid,
  });
  if (hasError(pix)) throw new AppError('ERR_PAYMENT_NOT_CONFIGURED', 503, pix.message);
  return pix.toBRCode();
}
