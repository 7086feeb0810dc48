import { ANNOUNCEMENT_EVENT } from '@balcao/contracts';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, collect, createCompanyWithAdmin, createTestApp, createTestDatabase, login, sleep, type LoggedIn, type TestApp } from '../../test/helpers.js';
import { hasRedisServer, NO_REDIS_MESSAGE, startRedisServer, type RedisServer } from '../../test/redis-server.js';
import { createPlainUser, listen, openSocket } from '../../test/roles.js';
import { createQueue, joinQueues } from '../../test/tickets.js';
import { ROOMS } from './rooms.js';

/**
 * Issue 19 point 1: two API nodes on one database and one Redis. An emit on node A reaches
 * the sockets on node B with the same rooms; a user's rooms edited through node A change
 * on node B; platform-wide emits reach companies whose sockets are only on the other node.
 */

if (!hasRedisServer) console.warn(`realtime cluster test ${NO_REDIS_MESSAGE}`);

describe.skipIf(!hasRedisServer)('sockets across two nodes (Redis adapter)', () => {
  let redis: RedisServer;
  let a: TestApp;
  let b: TestApp;
  let portB: number;
  let admin: LoggedIn;
  let companyId: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    const database = await createTestDatabase();
    const env = { REDIS_URL: redis.url, LOGIN_MAX_PER_IP: '1000', LOGIN_MAX_PER_EMAIL: '1000' };
    a = await createTestApp(env, {}, database);
    b = await createTestApp(env, {}, database);
    await listen(a);
    portB = await listen(b);
    const own = await createCompanyWithAdmin(a.db);
    companyId = own.company.id;
    admin = await login(a.app, own.email, own.password);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  it('an emit on node A reaches the room on node B; permissions edited on A move the rooms on B', async () => {
    const sales = (await createQueue(a.db, companyId, 'Vendas')).id;
    const support = (await createQueue(a.db, companyId, 'Suporte')).id;
    const plain = await createPlainUser(a, companyId);
    await joinQueues(a.db, companyId, plain.user.id, [sales]);
    const socket = await openSocket(portB, plain);
    sockets.push(socket);
    const seen = collect<{ record: { name: string } }>(socket, `company-${companyId}-queue`);
    const probe = (queueId: number, tag: string) =>
      a.app.ctx.realtime.emitToRooms(companyId, [ROOMS.queueUnassigned(queueId)], 'queue', { action: 'update', record: { id: queueId, name: tag } } as never);

    probe(sales, 'before');
    probe(support, 'not yet');
    await sleep(300);
    const moved = await a.app.inject({ method: 'PUT', url: `/users/${plain.user.id}`, headers: bearer(admin.token), payload: { queueIds: [support] } });
    expect(moved.statusCode, moved.body).toBe(200);
    await sleep(300);
    probe(sales, 'lost');
    probe(support, 'gained');
    await sleep(300);
    expect(seen.map((e) => e.record.name)).toEqual(['before', 'gained']);
    expect(socket.connected).toBe(true);
  });

  it('a platform-wide emit on node A reaches a company whose only socket is on node B', async () => {
    const other = await createCompanyWithAdmin(a.db);
    const otherAdmin = await login(b.app, other.email, other.password);
    const socket = await openSocket(portB, otherAdmin);
    sockets.push(socket);
    const heard = collect<{ action: string }>(socket, ANNOUNCEMENT_EVENT);
    a.app.ctx.realtime.emitAnnouncement({ action: 'delete', id: 987654 } as never);
    await sleep(400);
    expect(heard).toEqual([{ action: 'delete', id: 987654 }]);
  });

  it('logging out through node A closes the socket on node B', async () => {
    const plain = await createPlainUser(a, companyId);
    const socket = await openSocket(portB, plain);
    sockets.push(socket);
    const out = await a.app.inject({ method: 'DELETE', url: '/auth/logout', headers: bearer(plain.token) });
    expect(out.statusCode, out.body).toBeLessThan(300);
    await sleep(400);
    expect(socket.connected).toBe(false);
  });
});
