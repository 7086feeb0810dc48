import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile, type Config } from './config.js';

/** Secrets generated once and kept in DATA_DIR/secrets.json (mode 0600). */
export interface StoredSecrets {
  jwtSecret?: string;
  jwtRefreshSecret?: string;
  postgresPassword?: string;
}

export interface Secrets {
  jwtSecret: string;
  jwtRefreshSecret: string;
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

/** JWT secrets: the environment's when given, else generated once under DATA_DIR. */
export function resolveSecrets(config: Config): Secrets {
  return {
    jwtSecret: config.jwtSecret ?? storedSecret(config.dataDir, 'jwtSecret'),
    jwtRefreshSecret: config.jwtRefreshSecret ?? storedSecret(config.dataDir, 'jwtRefreshSecret'),
  };
}
