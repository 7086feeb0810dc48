import { createHmac, timingSafeEqual } from 'node:crypto';

/** `sha256=` + hex HMAC-SHA256 of `${timestamp}.${body}` (docs/webhooks.md): the timestamp is signed so a delivery cannot be replayed later as new. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does (and the tests do): recompute and compare in constant time. */
export function verifyWebhook(secret: string, timestamp: number, body: string, signature: string): boolean {
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
