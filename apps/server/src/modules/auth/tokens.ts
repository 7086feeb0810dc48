import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { z } from 'zod';
import type { Secrets } from '../../secrets.js';

export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_S = 7 * 24 * 60 * 60;

/**
 * Access token claims: the contract's `{ id, profile, companyId }` plus `tv`, the user's token
 * version at issue, and `fam`, the refresh family of the session (absent in tokens issued before families).
 */
const accessClaims = z.object({
  id: z.number().int(),
  profile: z.enum(['admin', 'user']),
  companyId: z.number().int(),
  tv: z.number().int(),
  fam: z.string().optional(),
});
export type AccessClaims = z.infer<typeof accessClaims>;

const refreshClaims = z.object({ id: z.number().int(), tokenVersion: z.number().int(), jti: z.string().min(1) });
export type RefreshClaims = z.infer<typeof refreshClaims>;

const key = (secret: string) => new TextEncoder().encode(secret);

export function signAccessToken(secrets: Secrets, claims: AccessClaims): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_S}s`)
    .sign(key(secrets.jwtSecret));
}

async function verify<T>(token: string, secret: string, schema: z.ZodType<T>, clockTolerance = 0): Promise<T | undefined> {
  let payload: JWTPayload;
  try {
    // A token without an expiry would be valid forever: refused even when correctly signed.
    ({ payload } = await jwtVerify(token, key(secret), { algorithms: ['HS256'], clockTolerance, requiredClaims: ['exp'] }));
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(payload);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Verifies an access token. `allowExpired` is for sockets: clients never renew
 * an open socket's token, so an expired but correctly signed one is accepted
 * for up to the refresh token's lifetime (API-CONTRACT "Realtime").
 */
export function verifyAccessToken(secrets: Secrets, token: string, opts: { allowExpired?: boolean } = {}) {
  return verify(token, secrets.jwtSecret, accessClaims, opts.allowExpired ? REFRESH_TOKEN_TTL_S : 0);
}

export async function signRefreshToken(secrets: Secrets, claims: Omit<RefreshClaims, 'jti'>) {
  const jti = randomUUID();
  const expiresAt = new Date(Date.now() + REFRESH_TOKEN_TTL_S * 1000);
  const token = await new SignJWT({ ...claims, jti })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key(secrets.jwtRefreshSecret));
  return { token, jti, expiresAt };
}

export function verifyRefreshToken(secrets: Secrets, token: string) {
  return verify(token, secrets.jwtRefreshSecret, refreshClaims);
}

/** RFC 6750 §2.1: `Bearer` (any case), spaces, one b64token, nothing else. */
const BEARER = /^bearer +(?<token>[A-Za-z0-9\-._~+/]+=*)$/i;

/** "Bearer <jwt>" → "<jwt>"; any other form (another scheme, two tokens, stray parts) → undefined. */
export function bearerToken(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  return BEARER.exec(header)?.groups?.token;
}

/** Between a right password and its second factor: who passed the first step, for five minutes. */
export const TWO_FACTOR_CHALLENGE_TTL_S = 5 * 60;
const challengeClaims = z.object({ id: z.number().int(), tv: z.number().int(), step: z.literal('2fa') });
// A key of its own: a challenge is never mistaken for an access token, nor the reverse.
const challengeSecret = (secrets: Secrets) => `2fa-challenge:${secrets.jwtSecret}`;

export function signTwoFactorChallenge(secrets: Secrets, user: { id: number; tokenVersion: number }): Promise<string> {
  return new SignJWT({ id: user.id, tv: user.tokenVersion, step: '2fa' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(`${TWO_FACTOR_CHALLENGE_TTL_S}s`)
    .sign(key(challengeSecret(secrets)));
}

export function verifyTwoFactorChallenge(secrets: Secrets, token: string) {
  return verify(token, challengeSecret(secrets), challengeClaims);
}
