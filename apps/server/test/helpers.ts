import { COMPANY_SETTING_DEFAULTS, type AuthResponse } from '@balcao/contracts';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { inject } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createDb, createPool, type Db } from '../src/db/client.js';
import { hashPassword } from '../src/db/passwords.js';
import { companies, companySettings, users } from '../src/db/schema/index.js';
import { buildApp, type AppDeps } from '../src/http/app.js';
import { fakeSocketFactory } from './fakes/wa-socket.js';
import type { Secrets } from '../src/secrets.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './global-setup.js';

export { ADMIN_EMAIL, ADMIN_PASSWORD };

export const TEST_SECRETS: Secrets = { jwtSecret: 'test-access-secret-'.padEnd(48, 'x'), jwtRefreshSecret: 'test-refresh-secret-'.padEnd(48, 'y') };

/** A fresh database cloned from the migrated + seeded template. */
export async function createTestDatabase(): Promise<string> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDb')}`);
  } finally {
    await client.end();
  }
  return adminUrl.replace(/\/postgres$/, `/${name}`);
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * `deps`: channel wiring (by default an inert fake Baileys socket: tests never reach WhatsApp) and a job queue.
 * `database`: another app's database (a second server process on the same data), else a fresh one.
 */
export async function createTestApp(env: Record<string, string> = {}, deps: Pick<AppDeps, 'channels' | 'boss'> = {}, database?: string): Promise<TestApp> {
  const connectionString = database ?? (await createTestDatabase());
  const pool = createPool(connectionString, 5);
  const dataDir = mkdtempSync(join(tmpdir(), 'balcao-test-data-'));
  const config = parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const app = await buildApp({ config, secrets: TEST_SECRETS, pool, boss: deps.boss, channels: { makeWaSocket: fakeSocketFactory(), ...deps.channels } });
  await app.ready();
  return {
    app,
    db: createDb(pool),
    pool,
    async close() {
      await app.close();
      await pool.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface LoggedIn extends AuthResponse {
  /** The `jrt` refresh cookie value. */
  refreshCookie: string;
}

export async function login(app: FastifyInstance, email: string, password: string): Promise<LoggedIn> {
  const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login ${email} → ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'jrt');
  if (!cookie) throw new Error('no jrt cookie');
  return { ...(res.json() as AuthResponse), refreshCookie: cookie.value };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let seq = 0;
/** A company with an admin, written straight to the database (plan 1 unless given). */
export async function createCompanyWithAdmin(
  db: Db,
  opts: { dueDate?: string; planId?: number; password?: string; userFields?: Partial<typeof users.$inferInsert> } = {},
) {
  seq += 1;
  const tag = `${seq}-${randomBytes(3).toString('hex')}`;
  const [company] = await db
    .insert(companies)
    .values({ name: `Company ${tag}`, planId: opts.planId ?? 1, dueDate: opts.dueDate ?? '2999-01-01', status: true })
    .returning();
  if (!company) throw new Error('no company');
  await db.insert(companySettings).values({ companyId: company.id, ...COMPANY_SETTING_DEFAULTS });
  const password = opts.password ?? 'password-123';
  const email = `admin-${tag}@example.com`;
  const [admin] = await db
    .insert(users)
    .values({ companyId: company.id, name: `Admin ${tag}`, email, passwordHash: await hashPassword(password), profile: 'admin', ...opts.userFields })
    .returning();
  if (!admin) throw new Error('no admin');
  return { company, admin, email, password };
}

/** Connects a socket.io client; resolves once connected (the server may still disconnect it right after). */
export function connectSocket(port: number, companyId: number, query: Record<string, string>): Socket {
  return io(`http://127.0.0.1:${port}/${companyId}`, { query, transports: ['websocket'], reconnection: false, forceNew: true });
}

/** Resolves with the first `event` on the socket, or rejects after `ms`. */
export function nextEvent<T = unknown>(socket: Socket, event: string, ms = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** Collects every `event` received, for "did NOT receive" assertions. */
export function collect<T = unknown>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (payload: T) => seen.push(payload));
  return seen;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
