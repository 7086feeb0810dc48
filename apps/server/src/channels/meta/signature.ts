import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

/** `X-Hub-Signature-256` of a raw body: `sha256=` + hex HMAC-SHA256 with the app secret. */
export function signBody(appSecret: string, raw: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}

const PREFIX = 'sha256=';

/**
 * Constant-time checks of headers against the raw bytes Meta signed with one app secret (the digests
 * compared as bytes, no hex string built). The key is prepared once, not per request.
 */
export function signatureChecker(appSecret: string): (raw: Buffer, header: string) => boolean {
  const key = createSecretKey(Buffer.from(appSecret, 'utf8'));
  return (raw, header) => {
    const given = header.trim();
    if (!given.startsWith(PREFIX) || given.length !== PREFIX.length + 64 || !/^[0-9a-f]{64}$/.test(given.slice(PREFIX.length))) return false;
    const expected = createHmac('sha256', key).update(raw).digest();
    return timingSafeEqual(expected, Buffer.from(given.slice(PREFIX.length), 'hex'));
  };
}
