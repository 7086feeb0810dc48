import { DEFAULT_WEEK_SCHEDULE, queueSchema, type ListEventPayload, type Queue } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plans, queues, userQueues } from '../../db/schema/index.js';
import { bearer, collect, nextEvent, sleep, type TestApp } from '../../../test/helpers.js';
import { createAdminTestApp, listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
let port: number;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await createAdminTestApp();
  const [plan] = await t.db.insert(plans).values({ name: 'Three queues', users: 10, connections: 1, queues: 3 }).returning();
  roles = await setupRoles(t, { planId: plan?.id });
  port = await listen(t);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

let sales: Queue;

describe('queue CRUD', () => {
  it('creates a queue with default hours and tells the company, not other companies', async () => {
    const mine = await openSocket(port, roles.user);
    const theirs = await openSocket(port, roles.otherAdmin);
    sockets.push(mine, theirs);
    const leaked = collect(theirs, `company-${roles.otherCompanyId}-queue`);
    const heard = nextEvent<ListEventPayload<Queue>>(mine, `company-${roles.companyId}-queue`);

    const res = await call(roles.admin.token, 'POST', '/queue', {
      name: 'Vendas',
      color: '#7C7C7C',
      orderQueue: 2,
      greetingMessage: 'Olá!',
      outOfHoursMessage: 'Fechado',
      closeTicket: true,
    });
    expect(res.statusCode).toBe(200);
    sales = queueSchema.parse(res.json());
    expect(sales).toMatchObject({ companyId: roles.companyId, name: 'Vendas', color: '#7C7C7C', orderQueue: 2, closeTicket: true });
    expect(sales.schedules).toEqual(DEFAULT_WEEK_SCHEDULE);
    expect(await heard).toEqual({ action: 'create', record: sales });
    await sleep(100);
    expect(leaked).toHaveLength(0);
  });

  it('gives a queue created without an order the next one, so the list shows every order', async () => {
    const res = await call(roles.admin.token, 'POST', '/queue', { name: 'Sem ordem', color: '#0A0B0C' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ orderQueue: 3 });
    const list = (await call(roles.admin.token, 'GET', '/queue')).json() as Queue[];
    expect(list.map((q) => [q.name, q.orderQueue])).toEqual([
      ['Vendas', 2],
      ['Sem ordem', 3],
    ]);
    // Another company counts its own queues from 1.
    const theirs = await call(roles.otherAdmin.token, 'POST', '/queue', { name: 'Deles', color: '#0A0B0C' });
    expect(theirs.json()).toMatchObject({ orderQueue: 1 });
    expect((await call(roles.admin.token, 'DELETE', `/queue/${(res.json() as Queue).id}`)).statusCode).toBe(200);
    await call(roles.otherAdmin.token, 'DELETE', `/queue/${(theirs.json() as Queue).id}`);
  });

  it('refuses a colour already used in the company (any case) and a duplicate name', async () => {
    const color = await call(roles.admin.token, 'POST', '/queue', { name: 'Suporte', color: '#7c7c7c' });
    expect(color.statusCode).toBe(409);
    expect(color.json()).toEqual({ error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' });
    const name = await call(roles.admin.token, 'POST', '/queue', { name: 'vendas', color: '#123456' });
    expect(name.json()).toEqual({ error: 'ERR_QUEUE_NAME_ALREADY_EXISTS' });
    // Another company may use the same colour.
    expect((await call(roles.otherAdmin.token, 'POST', '/queue', { name: 'Vendas', color: '#7C7C7C' })).statusCode).toBe(200);
  });

  it("validates with the form's messages", async () => {
    const res = await call(roles.admin.token, 'POST', '/queue', { name: 'V', color: '#1234567890' });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toEqual(expect.arrayContaining([{ path: 'name', message: 'Too Short!' }, { path: 'color', message: 'Too Long!' }]));
    const hours = await call(roles.admin.token, 'POST', '/queue', { name: 'Horas', color: '#abcdef', schedules: [{ ...DEFAULT_WEEK_SCHEDULE[0], endTimeB: '18h' }] });
    expect(hours.statusCode).toBe(400);
  });

  it('updates fields and service hours, and keeps colours unique on update', async () => {
    const schedules = DEFAULT_WEEK_SCHEDULE.map((d) => ({ ...d, startTimeA: '09:00' }));
    const res = await call(roles.admin.token, 'PUT', `/queue/${sales.id}`, { name: 'Vendas 2', schedules, greetingMessage: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Vendas 2', greetingMessage: null, color: '#7C7C7C' });
    expect(res.json().schedules[0].startTimeA).toBe('09:00');
    // Its own colour is not a clash.
    expect((await call(roles.admin.token, 'PUT', `/queue/${sales.id}`, { color: '#7c7c7c' })).statusCode).toBe(200);

    const other = (await call(roles.admin.token, 'POST', '/queue', { name: 'Suporte', color: '#00FF00' })).json();
    const clash = await call(roles.admin.token, 'PUT', `/queue/${other.id}`, { color: '#7C7C7C' });
    expect(clash.json()).toEqual({ error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' });
  });

  it('enforces the plan queue limit with 403 ERR_QUEUE_LIMIT_REACHED', async () => {
    expect((await call(roles.admin.token, 'POST', '/queue', { name: 'Terceira', color: '#0000FF' })).statusCode).toBe(200);
    const res = await call(roles.admin.token, 'POST', '/queue', { name: 'Quarta', color: '#FF0000' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_QUEUE_LIMIT_REACHED' });
    expect(await t.db.select().from(queues).where(eq(queues.companyId, roles.companyId))).toHaveLength(3);
  });

  it('lists the company queues for any user, ordered, and the caller’s own queues', async () => {
    const list = await call(roles.user.token, 'GET', '/queue');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((q: Queue) => q.name)).toEqual(['Vendas 2', 'Suporte', 'Terceira']);
    expect((await call(roles.user.token, 'GET', `/queue/${sales.id}`)).json()).toMatchObject({ id: sales.id });

    await t.db.insert(userQueues).values({ userId: roles.user.user.id, queueId: sales.id, companyId: roles.companyId });
    expect((await call(roles.user.token, 'GET', '/queue/user')).json().map((q: Queue) => q.id)).toEqual([sales.id]);
    expect((await call(roles.admin.token, 'GET', '/queue/user')).json()).toEqual([]);
  });

  it('deletes a queue with its user links and tells the company', async () => {
    const [victim] = await t.db.select().from(queues).where(eq(queues.name, 'Terceira'));
    const mine = await openSocket(port, roles.admin);
    sockets.push(mine);
    const heard = nextEvent(mine, `company-${roles.companyId}-queue`);
    expect((await call(roles.admin.token, 'DELETE', `/queue/${victim?.id}`)).statusCode).toBe(200);
    expect(await heard).toEqual({ action: 'delete', id: victim?.id });
    expect((await call(roles.admin.token, 'GET', `/queue/${victim?.id}`)).statusCode).toBe(404);
  });
});

describe('queue permissions', () => {
  it('refuses changes to plain users (403)', async () => {
    expect((await call(roles.user.token, 'POST', '/queue', { name: 'Nope', color: '#999999' })).statusCode).toBe(403);
    expect((await call(roles.user.token, 'PUT', `/queue/${sales.id}`, { name: 'Nope' })).statusCode).toBe(403);
    expect((await call(roles.user.token, 'DELETE', `/queue/${sales.id}`)).statusCode).toBe(403);
  });

  it("answers 404 for another company's queue on every call, never its data", async () => {
    for (const [method, payload] of [['GET'], ['PUT', { name: 'Stolen' }], ['DELETE']] as const) {
      const res = await call(roles.otherAdmin.token, method, `/queue/${sales.id}`, payload);
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_QUEUE_FOUND' });
    }
    const list = await call(roles.otherAdmin.token, 'GET', '/queue');
    expect(list.json().map((q: Queue) => q.id)).not.toContain(sales.id);
    const [still] = await t.db.select().from(queues).where(eq(queues.id, sales.id));
    expect(still?.name).toBe('Vendas 2');
  });
});
