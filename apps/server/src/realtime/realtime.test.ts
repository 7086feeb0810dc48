import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import type { Socket } from 'socket.io-client';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema/index.js';
import { ROOMS } from './rooms.js';
import {
  bearer,
  collect,
  connectSocket,
  createCompanyWithAdmin,
  createTestApp,
  login,
  nextEvent,
  sleep,
  type LoggedIn,
  TEST_SECRETS,
  type TestApp,
} from '../../test/helpers.js';

let t: TestApp;
let port: number;
let a: LoggedIn;
let b: LoggedIn;
let aCreds: { email: string; password: string };
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const ca = await createCompanyWithAdmin(t.db);
  const cb = await createCompanyWithAdmin(t.db);
  aCreds = ca;
  a = await login(t.app, ca.email, ca.password);
  b = await login(t.app, cb.email, cb.password);
});
afterAll(async () => {
  // Sockets still open on purpose: closing the app must not wait for them.
  const started = Date.now();
  await t.close();
  expect(Date.now() - started).toBeLessThan(3000);
  for (const s of sockets) s.close();
});

function open(session: LoggedIn, opts: { companyId?: number; userId?: number; token?: string } = {}): Socket {
  const socket = connectSocket(port, opts.companyId ?? session.user.companyId, {
    userId: String(opts.userId ?? session.user.id),
    token: `Bearer ${opts.token ?? session.token}`,
  });
  sockets.push(socket);
  return socket;
}

/** Connected and kept: the server did not disconnect it within a short while. */
async function accepted(socket: Socket): Promise<void> {
  await nextEvent(socket, 'connect');
  await sleep(200);
  expect(socket.connected).toBe(true);
}

async function refused(socket: Socket): Promise<void> {
  const reason = await Promise.race([
    nextEvent<string>(socket, 'disconnect'),
    nextEvent<Error>(socket, 'connect_error').then(() => 'connect_error'),
  ]);
  expect(['io server disconnect', 'connect_error']).toContain(reason);
  expect(socket.connected).toBe(false);
}

describe('socket authentication', () => {
  it('accepts a socket of the right company and user', async () => {
    await accepted(open(a));
    const [row] = await t.db.select({ online: users.online }).from(users).where(eq(users.id, a.user.id));
    expect(row?.online).toBe(true);
  });

  it('disconnects a token of another company, another userId, or a forged token', async () => {
    await refused(open(a, { companyId: b.user.companyId }));
    await refused(open(a, { userId: b.user.id }));
    const forged = await new SignJWT({ id: a.user.id, profile: 'admin', companyId: a.user.companyId, tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('15m')
      .sign(new TextEncoder().encode('not-the-server-secret-at-all-0000000000'));
    await refused(open(a, { token: forged }));
    await refused(open(a, { token: 'garbage' }));
  });

  it('accepts an expired but correctly signed access token (clients never renew an open socket)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ id: b.user.id, profile: 'admin', companyId: b.user.companyId, tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 2700)
      .sign(new TextEncoder().encode(TEST_SECRETS.jwtSecret));
    // Expired for HTTP…
    expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(token) })).statusCode).toBe(403);
    // …still fine for a socket.
    await accepted(open(b, { token }));
  });
});

describe('delivery', () => {
  it('an event for company A user room reaches that socket and no socket of company B', async () => {
    const sa = open(a);
    const sb = open(b);
    await Promise.all([accepted(sa), accepted(sb)]);
    const seenByB = collect(sb, `company-${b.user.companyId}-auth`);
    const seenByBWrongName = collect(sb, `company-${a.user.companyId}-auth`);
    const got = nextEvent(sa, `company-${a.user.companyId}-auth`);
    t.app.ctx.realtime.emitToUser(a.user.companyId, a.user.id, 'auth', { action: 'update', user: { id: a.user.id } });
    expect(await got).toEqual({ action: 'update', user: { id: a.user.id } });
    await sleep(200);
    expect(seenByB).toEqual([]);
    expect(seenByBWrongName).toEqual([]);
  });

  it('a new login emits company-{id}-auth to the older session socket', async () => {
    const older = open(a);
    await accepted(older);
    const event = nextEvent(older, `company-${a.user.companyId}-auth`);
    const fresh = await login(t.app, aCreds.email, aCreds.password);
    expect(await event).toEqual({ action: 'update', user: { id: a.user.id } });
    a = fresh;
  });

  it('creating a user emits company-{id}-user to that company only', async () => {
    const sa = open(a);
    const sb = open(b);
    await Promise.all([accepted(sa), accepted(sb)]);
    const seenByB = collect(sb, `company-${b.user.companyId}-user`);
    const event = nextEvent<{ action: string; user: { email: string } }>(sa, `company-${a.user.companyId}-user`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/users',
      headers: bearer(a.token),
      payload: { name: 'Rita', email: 'rita@example.com', password: 'rita-secret-1', profile: 'user' },
    });
    expect(res.statusCode).toBe(200);
    expect(await event).toMatchObject({ action: 'create', user: { email: 'rita@example.com' } });
    await sleep(100);
    expect(seenByB).toEqual([]);
  });
});

describe('settings', () => {
  it('a global setting change reaches every company namespace under its own event name', async () => {
    const { ADMIN_EMAIL, ADMIN_PASSWORD } = await import('../../test/helpers.js');
    const su = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const sb = open(b);
    await accepted(sb);
    const event = nextEvent(sb, `company-${b.user.companyId}-settings`);
    const res = await t.app.inject({ method: 'PUT', url: '/settings/appName', headers: bearer(su.token), payload: { value: 'Novo Nome' } });
    expect(res.statusCode).toBe(200);
    expect(await event).toEqual({ action: 'update', setting: { key: 'appName', value: 'Novo Nome' } });
  });
});

describe('logout', () => {
  it('disconnects the user sockets, revokes the refresh cookie and refuses the old token on a new socket', async () => {
    const socket = open(b);
    await accepted(socket);
    const gone = nextEvent<string>(socket, 'disconnect');
    const out = await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: bearer(b.token) });
    expect(out.statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
    const refresh = await t.app.inject({ method: 'POST', url: '/auth/refresh_token', cookies: { jrt: b.refreshCookie } });
    expect(refresh.statusCode).toBe(401);
    await refused(open(b));
    await sleep(200);
    open(a); // left open for the shutdown check in afterAll
    const [row] = await t.db.select({ online: users.online }).from(users).where(eq(users.id, b.user.id));
    expect(row?.online).toBe(false);
  });
});

describe('rooms follow permission changes', () => {
  it('moves an open socket out of a queue it lost and into the one it gained', async () => {
    const { queues } = await import('../db/schema/index.js');
    const companyId = a.user.companyId;
    const [sales, support] = await t.db
      .insert(queues)
      .values([
        { companyId, name: 'Rooms Vendas', color: '#101010' },
        { companyId, name: 'Rooms Suporte', color: '#202020' },
      ])
      .returning();
    const created = await t.app.inject({
      method: 'POST',
      url: '/users',
      headers: bearer(a.token),
      payload: { name: 'Rooms User', email: `rooms-${Date.now()}@example.com`, password: 'rooms-pass-1', profile: 'user', queueIds: [sales!.id] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const plain = await login(t.app, created.json<{ email: string }>().email, 'rooms-pass-1');
    const socket = open(plain);
    await accepted(socket);
    const seen = collect<{ record: { name: string } }>(socket, `company-${companyId}-queue`);

    // A marker event delivered to one queue's room only (a partial record is enough to tell them apart).
    const probe = (queueId: number, tag: string) =>
      t.app.ctx.realtime.emitToRooms(companyId, [ROOMS.queueUnassigned(queueId)], 'queue', { action: 'update', record: { id: queueId, name: tag } } as never);

    probe(sales!.id, 'before');
    await sleep(200);
    const moved = await t.app.inject({ method: 'PUT', url: `/users/${plain.user.id}`, headers: bearer(a.token), payload: { queueIds: [support!.id] } });
    expect(moved.statusCode, moved.body).toBe(200);
    probe(sales!.id, 'lost');
    probe(support!.id, 'gained');
    await sleep(300);
    expect(seen.map((e) => e.record.name)).toEqual(['before', 'gained']);
    expect(socket.connected).toBe(true);
  });
});
