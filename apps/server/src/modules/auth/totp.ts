import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { RECOVERY_CODE_COUNT } from '@balcao/contracts';

const PERIOD_S = 30;

const totpOf = (base32: string, label = '', issuer = '') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret: Secret.fromBase32(base32) });

/** A new 160-bit TOTP seed (RFC 4226 §4's recommended length), base32 as authenticator apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The `otpauth://totp/…` URI the authenticator app scans. */
export const otpauthUrl = (base32: string, account: string, issuer: string): string => totpOf(base32, account, issuer).toString();

/**
 * The 30 s step `code` belongs to, within one step of clock drift either way, or undefined.
 * Callers accept a step once, so a code seen over someone's shoulder cannot be replayed.
 */
export function totpStep(base32: string, code: string, now = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(base32).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / 1000 / PERIOD_S) + delta;
}

/** The current code: for tests and the e2e, like an authenticator app would show it. */
export const currentTotp = (base32: string, now = Date.now()): string => totpOf(base32).generate({ timestamp: now });

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes `xxxxx-xxxxx` (about 50 bits each): high-entropy, so a fast hash suffices to store them. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Hash of a recovery code as typed, after `twoFactorCode` dropped dashes and spaces. */
export const recoveryCodeHash = (normalised: string): string => createHash('sha256').update(normalised).digest('hex');
