import { createHmac, timingSafeEqual } from 'node:crypto';

/** `X-Hub-Signature-256` of a raw body: `sha256=` + hex HMAC-SHA256 with the app secret. */
export function signBody(appSecret: string, raw: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}

/** Constant-time check of the header against the raw bytes Meta signed. */
export function isValidSignature(appSecret: string, raw: Buffer, header: string): boolean {
  const expected = Buffer.from(signBody(appSecret, raw));
  const given = Buffer.from(header.trim());
  return expected.length === given.length && timingSafeEqual(expected, given);
}
