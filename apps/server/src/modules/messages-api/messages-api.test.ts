import type { ExternalSendResponse } from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, plans, queues, tickets, users } from '../../db/schema/index.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createCompanyWithAdmin, createTestApp, login, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { FakeGraph, PNG } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { multipart } from '../../../test/multipart.js';
import { generateConnectionToken } from '../whatsapp/service.js';

const RATE_LIMIT = 25;

let t: TestApp;
let graph: FakeGraph;
let companyId: number;
let otherCompanyId: number;
let token: string;
let otherToken: string;
let whatsappToken: string;
let userId: number;
let otherUserId: number;
let queueId: number;
let otherQueueId: number;
let psid = 7_000_000;
let ownAdmin: { email: string; password: string };

const nextPsid = () => String((psid += 1));
const send = (payload: object, bearerToken: string | null = token) =>
  t.app.inject({ method: 'POST', url: '/api/messages/send', headers: bearerToken ? { authorization: `Bearer ${bearerToken}` } : {}, payload });
const sendsTo = (number: string) => graph.sends().filter((s) => (s.body as { recipient: { id: string } }).recipient.id === number);
const ticketOf = async (id: number) => (await t.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), MESSAGES_API_MAX_PER_MINUTE: String(RATE_LIMIT) });
  const own = await createCompanyWithAdmin(t.db);
  const other = await createCompanyWithAdmin(t.db);
  companyId = own.company.id;
  ownAdmin = own;
  otherCompanyId = other.company.id;
  userId = own.admin.id;
  otherUserId = other.admin.id;
  token = (await createConnection(t.db, companyId)).token;
  otherToken = (await createConnection(t.db, otherCompanyId)).token;
  whatsappToken = (await createConnection(t.db, companyId, { channel: 'whatsapp', status: 'DISCONNECTED' })).token;
  queueId = (await t.db.insert(queues).values({ companyId, name: 'Vendas', color: '#112233' }).returning())[0]!.id;
  otherQueueId = (await t.db.insert(queues).values({ companyId: otherCompanyId, name: 'Vendas', color: '#112233' }).returning())[0]!.id;
});

afterAll(async () => {
  await t.close();
  await graph.close();
});

describe('POST /api/messages/send: who may call', () => {
  it('answers 401 without an Authorization header and 403 for a token no connection has', async () => {
    const missing = await send({ number: nextPsid(), body: 'oi' }, null);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ error: 'ERR_SESSION_EXPIRED' });
    const unknown = await send({ number: nextPsid(), body: 'oi' }, 'not-a-connection-token');
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json()).toMatchObject({ error: 'ERR_SESSION_EXPIRED' });
  });

  it('drops a looked-up token as soon as its connection gets a new token or is deleted, and its plan loses the API', async () => {
    const [plan] = await t.db.insert(plans).values({ name: 'API até hoje', useExternalApi: true }).returning();
    const company = await createCompanyWithAdmin(t.db, { planId: plan!.id });
    const admin = bearer((await login(t.app, company.email, company.password)).token);
    const connection = await createConnection(t.db, company.company.id);
    expect((await send({ number: nextPsid(), body: 'oi' }, connection.token)).statusCode).toBe(200);

    const renewed = generateConnectionToken();
    const edit = await t.app.inject({ method: 'PUT', url: `/whatsapp/${connection.id}`, headers: admin, payload: { token: renewed } });
    expect(edit.statusCode).toBe(200);
    expect((await send({ number: nextPsid(), body: 'oi' }, connection.token)).statusCode).toBe(403);
    expect((await send({ number: nextPsid(), body: 'oi' }, renewed)).statusCode).toBe(200);

    const superUser = bearer((await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD)).token);
    const planEdit = await t.app.inject({ method: 'PUT', url: `/plans/${plan!.id}`, headers: superUser, payload: { useExternalApi: false } });
    expect(planEdit.statusCode).toBe(200);
    const refused = await send({ number: nextPsid(), body: 'oi' }, renewed);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED' });

    await t.app.inject({ method: 'PUT', url: `/plans/${plan!.id}`, headers: superUser, payload: { useExternalApi: true } });
    expect((await send({ number: nextPsid(), body: 'oi' }, renewed)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/whatsapp/${connection.id}`, headers: admin })).statusCode).toBe(200);
    expect((await send({ number: nextPsid(), body: 'oi' }, renewed)).statusCode).toBe(403);
  });

  it('refuses a company whose plan lacks useExternalApi with ERR_PLAN_FEATURE_DISABLED and sends nothing', async () => {
    const [plan] = await t.db.insert(plans).values({ name: 'Sem API', useExternalApi: false }).returning();
    const company = await createCompanyWithAdmin(t.db, { planId: plan!.id });
    const connection = await createConnection(t.db, company.company.id);
    const number = nextPsid();
    const res = await send({ number, body: 'oi' }, connection.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    expect(await t.db.select().from(contacts).where(eq(contacts.number, number))).toEqual([]);
  });

  it('limits each token to its budget per minute with 429 and Retry-After; other tokens keep theirs', async () => {
    const [plan] = await t.db.select().from(plans).where(eq(plans.id, 1));
    expect(plan?.useExternalApi).toBe(true);
    const company = await createCompanyWithAdmin(t.db);
    const limited = (await createConnection(t.db, company.company.id)).token;
    const codes: number[] = [];
    // Invalid bodies still count: the budget protects the server, whatever is sent.
    for (let i = 0; i < RATE_LIMIT + 1; i++) codes.push((await send({ number: '' }, limited)).statusCode);
    expect(codes.slice(0, RATE_LIMIT).every((c) => c === 400)).toBe(true);
    const refused = await send({ number: nextPsid(), body: 'oi' }, limited);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'ERR_TOO_MANY_REQUESTS' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send({ number: nextPsid(), body: 'oi' }, otherToken)).statusCode).toBe(200);
  });
});

describe('POST /api/messages/send: sending', () => {
  it('creates the contact and a pending ticket, queues the text on the connection and answers SUCCESS with the message id', async () => {
    const number = nextPsid();
    const res = await send({ number, body: 'Seu pedido saiu para entrega' });
    expect(res.statusCode).toBe(200);
    const answer = res.json<ExternalSendResponse>();
    expect(answer.status).toBe('SUCCESS');
    const [message] = await t.db.select().from(messages).where(eq(messages.id, answer.messageId));
    expect(message).toMatchObject({ body: 'Seu pedido saiu para entrega', fromMe: true, ticketId: answer.ticketId, companyId });
    const [contact] = await t.db.select().from(contacts).where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)));
    expect(contact).toMatchObject({ channel: 'facebook', name: number });
    expect(await ticketOf(answer.ticketId)).toMatchObject({ contactId: contact!.id, status: 'pending', userId: null });
    await eventually(async () => sendsTo(number).length === 1);
    expect(sendsTo(number)[0]!.body).toMatchObject({ message: { text: 'Seu pedido saiu para entrega' } });

    // The second call goes on in the same conversation.
    const again = await send({ number, body: 'Chegou?' });
    expect(again.json<ExternalSendResponse>().ticketId).toBe(answer.ticketId);
  });

  it('converges concurrent first sends to one new number on one contact and one ticket, found by the contact search', async () => {
    const own = (await createConnection(t.db, companyId)).token;
    const number = nextPsid();
    const answers = await Promise.all([1, 2, 3, 4].map((i) => send({ number, body: `primeira ${i}` }, own)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    const ticketIds = new Set(answers.map((a) => a.json<ExternalSendResponse>().ticketId));
    expect(ticketIds.size).toBe(1);
    const found = await t.db.select().from(contacts).where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)));
    expect(found).toHaveLength(1);
    expect(await t.db.select().from(tickets).where(eq(tickets.contactId, found[0]!.id))).toHaveLength(1);
    expect(await t.db.select().from(messages).where(eq(messages.ticketId, [...ticketIds][0]!))).toHaveLength(4);
    const admin = bearer((await login(t.app, ownAdmin.email, ownAdmin.password)).token);
    for (const term of [number, number.slice(2, 7)]) {
      const res = await t.app.inject({ method: 'GET', url: `/contacts?searchParam=${term}`, headers: admin });
      expect(res.json<{ contacts: { id: number }[] }>().contacts.map((c) => c.id)).toContain(found[0]!.id);
    }
  });

  it('opens the ticket for the named user and queue, signs with their name, and closes it when asked', async () => {
    const number = nextPsid();
    const res = await send({ number, body: 'Pedido entregue', userId, queueId, sendSignature: true, closeTicket: true });
    expect(res.statusCode).toBe(200);
    const answer = res.json<ExternalSendResponse>();
    const [user] = await t.db.select().from(users).where(eq(users.id, userId));
    const [message] = await t.db.select().from(messages).where(eq(messages.id, answer.messageId));
    expect(message!.body).toBe(`*${user!.name}:*\nPedido entregue`);
    expect(await ticketOf(answer.ticketId)).toMatchObject({ userId, queueId, status: 'closed' });
  });

  it('moves a conversation already under way to the named user', async () => {
    const number = nextPsid();
    const first = (await send({ number, body: 'um' })).json<ExternalSendResponse>();
    const second = (await send({ number, body: 'dois', userId, queueId })).json<ExternalSendResponse>();
    expect(second.ticketId).toBe(first.ticketId);
    expect(await ticketOf(first.ticketId)).toMatchObject({ userId, queueId, status: 'open' });
  });

  it('sends the files of a multipart request, the text as the first caption', async () => {
    const number = nextPsid();
    const form = multipart({ number, body: 'Seu boleto', closeTicket: 'false' }, [
      { field: 'medias', name: 'boleto.png', type: 'image/png', data: PNG },
      { field: 'medias', name: 'recibo.png', type: 'image/png', data: PNG },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/messages/send', headers: { authorization: `Bearer ${token}`, ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(200);
    const answer = res.json<ExternalSendResponse>();
    const rows = await t.db.select().from(messages).where(eq(messages.ticketId, answer.ticketId)).orderBy(messages.id);
    expect(rows.map((m) => [m.mediaType, m.body])).toEqual([
      ['image', 'Seu boleto'],
      ['image', ''],
    ]);
    expect(rows[1]!.id).toBe(answer.messageId);
    await eventually(async () => sendsTo(number).length === 2);
  });

  it('refuses an invalid number with ERR_WAPP_INVALID_CONTACT and an empty message with ERR_EMPTY_MESSAGE', async () => {
    for (const number of ['abc', '12345']) {
      const res = await send({ number, body: 'oi' }, whatsappToken);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_WAPP_INVALID_CONTACT' });
    }
    expect((await send({ number: 'abc', body: 'oi' })).json()).toMatchObject({ error: 'ERR_WAPP_INVALID_CONTACT' });
    const empty = await send({ number: nextPsid(), body: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: 'ERR_EMPTY_MESSAGE' });
  });
});

describe('POST /api/messages/send: tenant isolation', () => {
  it("refuses another company's user or queue and creates nothing", async () => {
    const number = nextPsid();
    const user = await send({ number, body: 'oi', userId: otherUserId });
    expect(user.statusCode).toBe(404);
    expect(user.json()).toMatchObject({ error: 'ERR_NO_USER_FOUND' });
    const queue = await send({ number, body: 'oi', queueId: otherQueueId });
    expect(queue.statusCode).toBe(404);
    expect(queue.json()).toMatchObject({ error: 'ERR_NO_QUEUE_FOUND' });
    expect(await t.db.select().from(contacts).where(eq(contacts.number, number))).toEqual([]);
  });

  it("writes into the token's company only, even for a number another company already talks to", async () => {
    const number = nextPsid();
    const mine = (await send({ number, body: 'da empresa A' })).json<ExternalSendResponse>();
    const theirs = (await send({ number, body: 'da empresa B' }, otherToken)).json<ExternalSendResponse>();
    expect(theirs.ticketId).not.toBe(mine.ticketId);
    expect(await ticketOf(theirs.ticketId)).toMatchObject({ companyId: otherCompanyId });
    const rows = await t.db.select().from(messages).where(eq(messages.ticketId, mine.ticketId));
    expect(rows.map((m) => m.body)).toEqual(['da empresa A']);
    // Quoting a message of the other company's conversation is refused.
    const quote = await send({ number, body: 'oi', quotedMsg: { id: theirs.messageId } });
    expect(quote.statusCode).toBe(400);
  });
});

describe('OpenAPI', () => {
  it('documents the route with the connection-token security scheme', async () => {
    type Doc = { paths: Record<string, { post?: { security?: unknown } }>; components: { securitySchemes: Record<string, unknown> } };
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<Doc>();
    expect(doc.components.securitySchemes.connectionToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/messages/send']?.post?.security).toEqual([{ connectionToken: [] }]);
  });
});
