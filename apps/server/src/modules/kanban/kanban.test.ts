import { kanbanLanesResponse, kanbanTicketsResponse, type KanbanTicket, type TicketEventPayload } from '@balcao/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, plans, tags, ticketTags, tickets } from '../../db/schema/index.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, nextEvent, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';
import { createContact, createQueue, createTicketRow, joinQueues } from '../../../test/tickets.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import type { Connection } from '../../channels/adapter.js';
import { processInbound } from '../conversations/inbound.js';
import { runLaneAutomation } from './lanes.js';

let t: TestApp;
let graph: FakeGraph;
let roles: Roles;
let port: number;
let queueId: number;
let otherQueueId: number;
let conn: Connection;
const sockets: Socket[] = [];
type TicketUpdate = Extract<TicketEventPayload, { action: 'update' }>;

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
  roles = await setupRoles(t);
  port = await listen(t);
  queueId = (await createQueue(t.db, roles.companyId, 'Vendas')).id;
  otherQueueId = (await createQueue(t.db, roles.companyId, 'Suporte')).id;
  await joinQueues(t.db, roles.companyId, roles.user.user.id, [queueId]);
  await joinQueues(t.db, roles.companyId, roles.admin.user.id, [queueId, otherQueueId]);
  conn = await createConnection(t.db, roles.companyId, {}, [queueId]);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
  await graph.close();
});

const call = (token: string, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

async function board(session: LoggedIn, query = ''): Promise<KanbanTicket[]> {
  const res = await call(session.token, 'GET', `/ticket/kanban${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return kanbanTicketsResponse.parse(res.json()).tickets;
}
const cardOf = async (session: LoggedIn, ticketId: number) => (await board(session)).find((c) => c.id === ticketId);

let seq = 0;
async function lane(companyId: number, over: Partial<typeof tags.$inferInsert> = {}) {
  seq += 1;
  const [row] = await t.db
    .insert(tags)
    .values({ companyId, name: `Lane ${seq}`, color: '#123456', kanban: 1, ...over })
    .returning();
  return row!;
}
async function ticket(companyId: number, over: Partial<typeof tickets.$inferInsert> = {}) {
  const contact = await createContact(t.db, companyId);
  return createTicketRow(t.db, { companyId, contactId: contact.id, whatsappId: null, queueId, status: 'open', userId: roles.user.user.id, ...over });
}
const laneIds = async (ticketId: number) =>
  (await t.db.select({ id: ticketTags.tagId }).from(ticketTags).where(eq(ticketTags.ticketId, ticketId)).orderBy(asc(ticketTags.tagId))).map((r) => r.id);

describe('GET /tag/kanban/', () => {
  it("answers the company's lanes in creation order, without plain tags or other companies' lanes", async () => {
    const first = await lane(roles.companyId, { name: 'Zeta primeiro' });
    const second = await lane(roles.companyId, { name: 'Alfa depois' });
    await t.db.insert(tags).values({ companyId: roles.companyId, name: 'Plain', color: '#000000', kanban: 0 });
    const theirs = await lane(roles.otherCompanyId);
    const res = await call(roles.user.token, 'GET', '/tag/kanban/');
    expect(res.statusCode).toBe(200);
    const ids = kanbanLanesResponse.parse(res.json()).lista.map((l) => l.id);
    expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(ids).not.toContain(theirs.id);
    const kinds = await t.db.select({ kanban: tags.kanban }).from(tags).where(sql`${tags.id} in ${ids}`);
    expect(kinds.every((k) => k.kanban === 1)).toBe(true);
  });
});

describe('GET /ticket/kanban', () => {
  it("answers the live tickets of the caller's queues it may see, active in the day range, with lanes and the value", async () => {
    const mine = await ticket(roles.companyId);
    const pending = await ticket(roles.companyId, { status: 'pending', userId: null });
    const closed = await ticket(roles.companyId, { status: 'closed' });
    const otherQueue = await ticket(roles.companyId, { queueId: otherQueueId, userId: null });
    const someoneElses = await ticket(roles.companyId, { userId: roles.admin.user.id });
    const yesterday = await ticket(roles.companyId);
    await t.db.execute(sql`update tickets set updated_at = now() - interval '1 day' where id = ${yesterday.id}`);
    const l = await lane(roles.companyId);
    await t.db.insert(ticketTags).values({ ticketId: mine.id, tagId: l.id });
    const put = await call(roles.user.token, 'PUT', `/contacts/${mine.contactId}`, { extraInfo: [{ name: 'valor', value: '150.50' }] });
    expect(put.statusCode, put.body).toBe(200);

    const cards = await board(roles.user);
    const ids = cards.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([mine.id, pending.id]));
    for (const hidden of [closed.id, otherQueue.id, someoneElses.id, yesterday.id]) expect(ids).not.toContain(hidden);
    const card = cards.find((c) => c.id === mine.id)!;
    expect(card).toMatchObject({
      uuid: mine.uuid,
      tags: [{ id: l.id, name: l.name, color: '#123456' }],
      contact: { id: mine.contactId, extraInfo: [{ name: 'valor', value: '150.50' }] },
      user: { id: roles.user.user.id },
    });
    // PostgreSQL writes the board's JSON: the time as toISOString() does, sorted by ticket number.
    expect(card.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const day = new Date(Date.now() - 86_400_000);
    const ymd = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
    const wider = (await board(roles.user, `?startDate=${ymd}`)).map((c) => c.id);
    expect(wider).toContain(yesterday.id);
    // The admin sees every owner's tickets of its queues, and narrows by queueIds.
    const adminIds = (await board(roles.admin, `?queueIds=${encodeURIComponent(JSON.stringify([otherQueueId]))}`)).map((c) => c.id);
    expect(adminIds).toEqual([otherQueue.id]);
  });

  it('refuses bad dates and garbage queue lists with 400', async () => {
    for (const q of ['?startDate=2025-02-10&endDate=2025-02-01', '?queueIds=garbage', '?startDate=10/02/2025']) {
      const res = await call(roles.user.token, 'GET', `/ticket/kanban${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error, q).toBe('ERR_VALIDATION');
    }
  });

  it("never shows another company's tickets, even when asked for its queues", async () => {
    const theirQueue = await createQueue(t.db, roles.otherCompanyId);
    const theirs = await ticket(roles.otherCompanyId, { queueId: theirQueue.id, userId: null });
    const ids = (await board(roles.admin, `?queueIds=${encodeURIComponent(JSON.stringify([theirQueue.id, queueId]))}`)).map((c) => c.id);
    expect(ids).not.toContain(theirs.id);
    const theirAdmin = (await board(roles.otherAdmin)).map((c) => c.id);
    expect(theirAdmin).not.toContain((await ticket(roles.companyId)).id);
  });

  it('needs the plan flag useKanban (403 ERR_PLAN_FEATURE_DISABLED)', async () => {
    const [plan] = await t.db.insert(plans).values({ name: `Sem kanban ${Date.now()}`, users: 5, connections: 5, queues: 5, useKanban: false }).returning();
    const company = await createCompanyWithAdmin(t.db, { planId: plan!.id });
    const admin = await login(t.app, company.email, company.password);
    for (const url of ['/ticket/kanban', '/tag/kanban/']) {
      const res = await call(admin.token, 'GET', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    }
  });
});

describe('kanban drag (spec 2 §4): remove the current tag, then set the new one', () => {
  it('moves a card to another lane, and to the default column by removing only', async () => {
    const from = await lane(roles.companyId);
    const to = await lane(roles.companyId);
    const tk = await ticket(roles.companyId);
    await t.db.insert(ticketTags).values({ ticketId: tk.id, tagId: from.id });
    const socket = await openSocket(port, roles.user);
    sockets.push(socket);

    const removed = nextEvent<TicketUpdate>(socket, `company-${roles.companyId}-ticket`);
    expect((await call(roles.user.token, 'DELETE', `/ticket-tags/${tk.id}`)).statusCode).toBe(200);
    expect((await removed).ticket.tags).toEqual([]);
    const set = nextEvent<TicketUpdate>(socket, `company-${roles.companyId}-ticket`);
    expect((await call(roles.user.token, 'PUT', `/ticket-tags/${tk.id}/${to.id}`)).statusCode).toBe(200);
    expect((await set).ticket.tags.map((x) => x.id)).toEqual([to.id]);
    expect((await cardOf(roles.user, tk.id))?.tags.map((x) => x.id)).toEqual([to.id]);

    expect((await call(roles.user.token, 'DELETE', `/ticket-tags/${tk.id}`)).statusCode).toBe(200);
    expect((await cardOf(roles.user, tk.id))?.tags).toEqual([]);
    expect(await laneIds(tk.id)).toEqual([]);
  });

  it("cannot move another company's ticket nor into another company's lane", async () => {
    const theirLane = await lane(roles.otherCompanyId);
    const tk = await ticket(roles.companyId);
    const res = await call(roles.user.token, 'PUT', `/ticket-tags/${tk.id}/${theirLane.id}`);
    expect(res.statusCode).toBe(404);
    expect((await call(roles.otherAdmin.token, 'DELETE', `/ticket-tags/${tk.id}`)).statusCode).toBe(404);
    expect(await laneIds(tk.id)).toEqual([]);
  });
});

describe('lane automation (docs/kanban.md)', () => {
  const minutesAgo = (ticketId: number, minutes: number) =>
    t.db.execute(sql`update ticket_tags set created_at = now() - make_interval(mins => ${minutes}) where ticket_id = ${ticketId}`);

  /** A customer's message on the connection, through the inbound pipeline. */
  async function customerSays(number: string, body: string) {
    seq += 1;
    const result = await processInbound(t.app.ctx, conn, {
      kind: 'message',
      wid: `m_kanban_${seq}`,
      fromMe: false,
      body,
      mediaType: 'chat',
      at: new Date(),
      chat: { number, name: 'Cliente Kanban', remoteJid: number, isGroup: false },
      raw: {},
    });
    if (result.outcome !== 'stored') throw new Error(`not stored: ${result.outcome}`);
    return result.ticketId;
  }

  it('moves a ticket to nextLaneId after timeLane minutes without an answer, greets the customer, and back on a customer message', async () => {
    const waiting = await lane(roles.companyId, { name: 'Negociando' });
    const silent = await lane(roles.companyId, { name: 'Sem resposta', rollbackLaneId: waiting.id });
    await t.db.update(tags).set({ timeLane: 30, nextLaneId: silent.id, greetingMessageLane: 'Ainda tem interesse, {{firstName}}?' }).where(eq(tags.id, waiting.id));
    const number = `55119${String(Date.now()).slice(-8)}`;
    const ticketId = await customerSays(number, 'Quero um orçamento');
    await t.db.insert(ticketTags).values({ ticketId, tagId: waiting.id });

    await minutesAgo(ticketId, 29);
    await runLaneAutomation(t.app.ctx);
    expect(await laneIds(ticketId)).toEqual([waiting.id]);

    await minutesAgo(ticketId, 31);
    await runLaneAutomation(t.app.ctx);
    expect(await laneIds(ticketId)).toEqual([silent.id]);
    const sent = await t.db
      .select({ body: messages.body })
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, true)));
    expect(sent.map((m) => m.body)).toEqual(['Ainda tem interesse, Cliente?']);
    // Nothing more is due: a second sweep neither moves nor greets again.
    await runLaneAutomation(t.app.ctx);
    expect(await laneIds(ticketId)).toEqual([silent.id]);

    await customerSays(number, 'Sim, ainda quero');
    await eventually(async () => (await laneIds(ticketId)).includes(waiting.id));
    expect(await laneIds(ticketId)).toEqual([waiting.id]);
    expect(await t.db.$count(messages, and(eq(messages.ticketId, ticketId), eq(messages.fromMe, true)))).toBe(1);
  });

  it('leaves an answered ticket in its lane, and the sweep alone also rolls back (restart-safe)', async () => {
    const back = await lane(roles.companyId);
    const after = await lane(roles.companyId);
    const timed = await lane(roles.companyId, { timeLane: 5, nextLaneId: after.id });
    const returning = await lane(roles.companyId, { rollbackLaneId: back.id });
    const answered = await ticket(roles.companyId);
    await t.db.insert(ticketTags).values({ ticketId: answered.id, tagId: timed.id });
    await minutesAgo(answered.id, 10);
    await t.db.insert(messages).values({ companyId: roles.companyId, ticketId: answered.id, body: 'Já respondi', fromMe: true });

    // A customer message stored while no process ran the fast path (written straight to the table).
    const missed = await ticket(roles.companyId);
    await t.db.insert(ticketTags).values({ ticketId: missed.id, tagId: returning.id });
    await minutesAgo(missed.id, 3);
    await t.db.insert(messages).values({ companyId: roles.companyId, ticketId: missed.id, body: 'Oi?', fromMe: false });

    await runLaneAutomation(t.app.ctx);
    expect(await laneIds(answered.id)).toEqual([timed.id]);
    expect(await laneIds(missed.id)).toEqual([back.id]);
  });
});
