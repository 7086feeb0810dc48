import { describe, expect, it } from 'vitest';
import { signatureChecker, signBody } from './signature.js';

describe('signatureChecker (X-Hub-Signature-256 over the raw bytes)', () => {
  const raw = Buffer.from('{"object":"page","entry":[{"id":"1","text":"Olá 😀"}]}');

  it('accepts the HMAC-SHA256 of the bytes with the app secret, whatever the secret\'s length, spaces around it ignored', () => {
    for (const secret of ['s', 'test-app-secret-0123456789', 'x'.repeat(200)]) {
      const valid = signatureChecker(secret);
      expect(valid(raw, signBody(secret, raw))).toBe(true);
      expect(valid(raw, ` ${signBody(secret, raw)}\t`)).toBe(true);
      expect(valid(Buffer.concat([raw, Buffer.from(' ')]), signBody(secret, raw))).toBe(false);
      expect(valid(raw, signBody(`${secret}!`, raw))).toBe(false);
    }
  });

  it('refuses anything but `sha256=` and 64 lower-case hex digits', () => {
    const valid = signatureChecker('secret');
    const right = signBody('secret', raw);
    const digest = right.slice('sha256='.length);
    for (const header of [
      '',
      digest,
      `sha1=${digest}`,
      `SHA256=${digest}`,
      right.toUpperCase(),
      `sha256=${digest.slice(0, 63)}`,
      `${right}0`,
      `sha256=${digest.slice(0, 63)}g`,
      `sha256=${digest.slice(0, 63)}/`,
      `sha256=${digest.slice(0, 63)}:`,
      `sha256=${digest.slice(0, 63)}\``,
      `sha256=${digest.slice(0, 31)} ${digest.slice(32)}`,
    ]) {
      expect(valid(raw, header), header).toBe(false);
    }
  });
});
