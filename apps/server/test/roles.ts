import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll } from 'vitest';
import { hashPassword } from '../src/db/passwords.js';
import { users } from '../src/db/schema/index.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, connectSocket, createCompanyWithAdmin, createTestApp, login, nextEvent, sleep, type LoggedIn, type TestApp } from './helpers.js';

/** A test app with login limits high enough for permission matrices. */
export const createAdminTestApp = () => createTestApp({ LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });

let seq = 0;
/** A plain user (profile user) in the company, logged in. */
export async function createPlainUser(t: TestApp, companyId: number, fields: Partial<typeof users.$inferInsert> = {}): Promise<LoggedIn> {
  seq += 1;
  const email = `user-${seq}-${Date.now()}@example.com`;
  await t.db.insert(users).values({ companyId, name: `User ${seq}`, email, passwordHash: await hashPassword('password-123'), profile: 'user', ...fields });
  return login(t.app, email, 'password-123');
}

/** The four callers of every permission matrix: the super user, a company's admin and plain user, another company's admin. */
export interface Roles {
  super: LoggedIn;
  admin: LoggedIn;
  user: LoggedIn;
  otherAdmin: LoggedIn;
  companyId: number;
  otherCompanyId: number;
}

export async function setupRoles(t: TestApp, opts: { planId?: number } = {}): Promise<Roles> {
  const own = await createCompanyWithAdmin(t.db, { planId: opts.planId });
  const other = await createCompanyWithAdmin(t.db);
  return {
    super: await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD),
    admin: await login(t.app, own.email, own.password),
    user: await createPlainUser(t, own.company.id),
    otherAdmin: await login(t.app, other.email, other.password),
    companyId: own.company.id,
    otherCompanyId: other.company.id,
  };
}

/** Listens on a free port (for socket tests) and answers it. */
export async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** A connected socket of the session's user under its company. */
export async function openSocket(port: number, session: LoggedIn): Promise<Socket> {
  const socket = connectSocket(port, session.user.companyId, { userId: String(session.user.id), token: `Bearer ${session.token}` });
  await nextEvent(socket, 'connect');
  // The server joins rooms right after accepting the connection.
  await sleep(100);
  return socket;
}

/** What a roles suite hands its file once the app listens. */
export interface RolesSuite {
  t: TestApp;
  roles: Roles;
  port: number;
}

/**
 * Registers the usual setup of a permission-matrix file: an app, the four roles and a listening port before
 * the tests, every opened socket and the app closed after them. Answers the array the file pushes its sockets to.
 */
export function rolesSuite(ready: (suite: RolesSuite) => void, start: () => Promise<TestApp> = createAdminTestApp): Socket[] {
  const sockets: Socket[] = [];
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await start();
    ready({ t, roles: await setupRoles(t), port: await listen(t) });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.close();
  });
  return sockets;
}
