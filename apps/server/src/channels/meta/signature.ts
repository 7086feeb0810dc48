import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

/** `X-Hub-Signature-256` of a raw body: `sha256=` + hex HMAC-SHA256 with the app secret. */
export function signBody(appSecret: string, raw: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}

const PREFIX = 'sha256=';

/** 64 lower-case hex digits after the prefix (a loop: the regex cost more, measured, at the webhook's rate). */
function isDigest(header: string): boolean {
  if (header.length !== PREFIX.length + 64 || !header.startsWith(PREFIX)) return false;
  for (let i = PREFIX.length; i < header.length; i++) {
    const c = header.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

/**
 * Constant-time checks of headers against the raw bytes Meta signed with one app secret (the digests
 * compared as bytes, no hex string built). The key is prepared once, not per request.
 */
export function signatureChecker(appSecret: string): (raw: Buffer, header: string) => boolean {
  const key = createSecretKey(Buffer.from(appSecret, 'utf8'));
  return (raw, header) => {
    const given = header.trim();
    if (!isDigest(given)) return false;
    const expected = createHmac('sha256', key).update(raw).digest();
    return timingSafeEqual(expected, Buffer.from(given.slice(PREFIX.length), 'hex'));
  };
}
