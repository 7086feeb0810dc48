import { ANNOUNCEMENT_EVENT } from '@balcao/contracts';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, collect, createCompanyWithAdmin, createTestApp, createTestDatabase, login, sleep, type LoggedIn, type TestApp } from '../../test/helpers.js';
import { hasRedisServer, NO_REDIS_MESSAGE, startRedisServer, type RedisServer } from '../../test/redis-server.js';
import { createPlainUser, listen, openSocket } from '../../test/roles.js';
import { createConnection, eventually } from '../../test/connections.js';
import { createContact, createQueue, createTicketRow, joinQueues } from '../../test/tickets.js';
import { eq } from 'drizzle-orm';
import { tickets } from '../db/schema/index.js';
import { emitTicketUpdate } from '../modules/conversations/emit.js';
import { ROOMS } from './rooms.js';

/**
 * Issue 19 point 1: two API nodes on one database and one Redis. An emit on node A reaches
 * the sockets on node B with the same rooms; a user's rooms edited through node A change
 * on node B; platform-wide emits reach companies whose sockets are only on the other node;
 * a ticket moved out of a user's sight on node A drops their socket on node B from its room;
 * a node decodes only other nodes' broadcasts that reach one of its sockets.
 */

if (!hasRedisServer) console.warn(`realtime cluster test ${NO_REDIS_MESSAGE}`);

describe.skipIf(!hasRedisServer)('sockets across two nodes (Redis adapter)', () => {
  let redis: RedisServer;
  let a: TestApp;
  let b: TestApp;
  let portA: number;
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
    portA = await listen(a);
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

  it('a ticket moved out of sight on node A drops the viewer’s socket on node B from the ticket’s room', async () => {
    const sales = (await createQueue(a.db, companyId, 'Vendas')).id;
    const support = (await createQueue(a.db, companyId, 'Suporte')).id;
    const plain = await createPlainUser(a, companyId);
    await joinQueues(a.db, companyId, plain.user.id, [sales]);
    const whatsappId = (await createConnection(a.db, companyId)).id;
    const contactId = (await createContact(a.db, companyId)).id;
    const ticket = await createTicketRow(a.db, { companyId, contactId, whatsappId, queueId: sales });
    const socket = await openSocket(portB, plain);
    sockets.push(socket);
    expect(await socket.emitWithAck('joinChatBox', ticket.id)).toEqual({ ok: true });
    const members = async () => (await a.app.ctx.realtime.io.of(`/${companyId}`).in(ROOMS.ticket(ticket.id)).fetchSockets()).length;
    expect(await members()).toBe(1);
    // Still visible: the socket stays.
    await emitTicketUpdate(a.app.ctx, ticket.id);
    await sleep(300);
    expect(await members()).toBe(1);
    await a.db.update(tickets).set({ queueId: support }).where(eq(tickets.id, ticket.id));
    await emitTicketUpdate(a.app.ctx, ticket.id);
    await eventually(async () => (await members()) === 0);
  });

  it('a node drops its own broadcasts undecoded, and decodes another node’s only for a room it holds a socket of', async () => {
    const queue = (await createQueue(a.db, companyId, 'Só A')).id;
    const plain = await createPlainUser(a, companyId);
    await joinQueues(a.db, companyId, plain.user.id, [queue]);
    const socket = await openSocket(portA, plain);
    sockets.push(socket);
    const heard = collect<{ record: { name: string } }>(socket, `company-${companyId}-queue`);
    await sleep(300); // the connection's own broadcast (the user now online) is not counted
    // Both nodes of this test run in one process and share the adapter's msgpack parser: one count for both.
    const parser = (a.app.ctx.realtime.io.of(`/${companyId}`).adapter as unknown as { parser: { decode(m: Buffer): unknown } }).parser;
    const decode = parser.decode;
    let decoded = 0;
    parser.decode = (m) => {
      decoded += 1;
      return decode.call(parser, m);
    };
    const emit = (node: TestApp, rooms: string[], name: string) =>
      node.app.ctx.realtime.emitToRooms(companyId, rooms, 'queue', { action: 'update', record: { id: queue, name } } as never);
    // The queue's room has a socket on A only; the second emit names two rooms (the namespace's channel, not a room's):
    // A drops both undecoded, B decodes only the second (a room's channel it holds no socket of never reaches the decoder).
    try {
      emit(a, [ROOMS.queueUnassigned(queue)], 'from A');
      emit(a, [ROOMS.queueUnassigned(queue), ROOMS.noQueue], 'from A, two rooms');
      await sleep(400);
      expect(decoded).toBe(1);
      emit(b, [ROOMS.queueUnassigned(queue)], 'from B');
      await eventually(async () => heard.length === 3);
      expect(heard.map((e) => e.record.name)).toEqual(['from A', 'from A, two rooms', 'from B']);
      expect(decoded).toBe(2);
    } finally {
      parser.decode = decode;
    }
  });
});
