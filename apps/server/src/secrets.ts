import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile, type Config } from './config.js';

/** Secrets generated once and kept in DATA_DIR/secrets.json (mode 0600). */
export interface StoredSecrets {
  jwtSecret?: string;
  jwtRefreshSecret?: string;
  postgresPassword?: string;
  dataKey?: string;
}

export interface Secrets {
  jwtSecret: string;
  jwtRefreshSecret: string;
  /** Encrypts secrets kept in the database (two-factor seeds); scripts that build their own secrets may leave it out (see `sealSecret`). */
  dataKey?: string;
}

export const randomSecret = (bytes = 48): string => randomBytes(bytes).toString('base64url');

function secretsPath(dataDir: string): string {
  return join(dataDir, 'secrets.json');
}

/** Returns the stored value of `key`, generating and persisting it on first use. */
export function storedSecret(dataDir: string, key: keyof StoredSecrets, generate = () => randomSecret()): string {
  const path = secretsPath(dataDir);
  const stored = readJsonFile<StoredSecrets>(path) ?? {};
  const existing = stored[key];
  if (existing) return existing;
  const value = generate();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path, JSON.stringify({ ...stored, [key]: value }, null, 2) + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
  return value;
}

/** JWT secrets and the data key: the environment's when given, else generated once under DATA_DIR. */
export function resolveSecrets(config: Config): Secrets {
  return {
    jwtSecret: config.jwtSecret ?? storedSecret(config.dataDir, 'jwtSecret'),
    jwtRefreshSecret: config.jwtRefreshSecret ?? storedSecret(config.dataDir, 'jwtRefreshSecret'),
    dataKey: config.dataKey ?? storedSecret(config.dataDir, 'dataKey'),
  };
}

/** Without a data key (benches, test apps) the key is derived from the access-token secret. */
const aesKey = (secrets: Secrets) => createHash('sha256').update(secrets.dataKey ?? `data-key:${secrets.jwtSecret}`).digest();

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` (base64url); tampering makes `openSecret` throw. */
export function sealSecret(secrets: Secrets, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey(secrets), iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function openSecret(secrets: Secrets, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown sealed secret format');
  const decipher = createDecipheriv('aes-256-gcm', aesKey(secrets), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
