import { campaignReportSchema, campaignSchema, type Campaign, type CampaignReport, type ListEventPayload } from '@balcao/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignShipping, campaigns, contactListItems, contactLists, messages, plans } from '../../db/schema/index.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { messengerText, metaEnv, postWebhook } from '../../../test/fakes/meta-webhook.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, nextEvent, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createPlainUser, listen, openSocket } from '../../../test/roles.js';
import { runCampaign } from './engine.js';

let t: TestApp;
let graph: FakeGraph;
let session: LoggedIn;
let otherSession: LoggedIn;
let token: string;
let userToken: string;
let otherToken: string;
let companyId: number;
let connection: Awaited<ReturnType<typeof createConnection>>;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
  const own = await createCompanyWithAdmin(t.db);
  companyId = own.company.id;
  session = await login(t.app, own.email, own.password);
  token = session.token;
  userToken = (await createPlainUser(t, companyId)).token;
  const other = await createCompanyWithAdmin(t.db);
  otherSession = await login(t.app, other.email, other.password);
  otherToken = otherSession.token;
  connection = await createConnection(t.db, companyId, { name: 'Página Loja' });
  port = await listen(t);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
  await graph.close();
});

const call = (tok: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(tok), ...(payload ? { payload } : {}) });

let psid = 6_100_000_000_000_000;
/** A list of Messenger people (page-scoped ids as numbers), written straight to the database. */
async function listOf(names: string[]): Promise<{ listId: number; numbers: string[] }> {
  const [list] = await t.db.insert(contactLists).values({ companyId, name: `Lista ${psid}` }).returning();
  const numbers = names.map(() => String((psid += 1)));
  await t.db.insert(contactListItems).values(names.map((name, i) => ({ companyId, contactListId: list!.id, name, number: numbers[i]!, email: `${i}@example.com` })));
  return { listId: list!.id, numbers };
}

/** Local time of a Wednesday inside the default window (09:00–18:00). */
const wednesday = (h: number, m = 0, s = 0) => new Date(2030, 0, 9, h, m, s);
const stamp = (d: Date) => {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
};

async function create(fields: Record<string, unknown>): Promise<Campaign> {
  const res = await call(token, 'POST', '/campaigns', { name: 'Black Friday', whatsappId: connection.id, message1: 'Oi {nome}!', ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return campaignSchema.parse(res.json());
}
const reload = async (id: number) => (await t.db.select().from(campaigns).where(eq(campaigns.id, id)))[0]!;
const shippingOf = (id: number) => t.db.select().from(campaignShipping).where(eq(campaignShipping.campaignId, id));
const sendsTo = (number: string) => graph.sends().filter((s) => JSON.stringify(s.body).includes(`"${number}"`));
const settings = (values: Record<string, unknown>) => call(token, 'POST', '/campaign-settings', { settings: values });

describe('campaign settings', () => {
  it('answers the defaults of spec 3 §9, saves the keys given and refuses values outside the options', async () => {
    const res = await call(token, 'GET', '/campaign-settings');
    expect(res.statusCode).toBe(200);
    const byKey = Object.fromEntries((res.json() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    expect(byKey).toEqual({
      messageInterval: '20',
      longerIntervalAfter: '20',
      greaterInterval: '60',
      variables: '[]',
      sabado: 'false',
      domingo: 'false',
      startHour: '09:00',
      endHour: '18:00',
    });
    const saved = await settings({ messageInterval: 5, variables: [{ key: 'loja', value: 'Loja Centro' }], sabado: 'true' });
    expect(saved.statusCode).toBe(200);
    const after = Object.fromEntries((saved.json() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    expect(after).toMatchObject({ messageInterval: '5', sabado: 'true', greaterInterval: '60', variables: JSON.stringify([{ key: 'loja', value: 'Loja Centro' }]) });
    for (const bad of [{ messageInterval: 7 }, { greaterInterval: 30 }, { longerIntervalAfter: 25 }, { startHour: '25:00' }, { startHour: '18:00', endHour: '09:00' }]) {
      expect((await settings(bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await call(otherToken, 'GET', '/campaign-settings')).json()).toContainEqual(expect.objectContaining({ key: 'messageInterval', value: '20' }));
  });
});

describe('campaign CRUD and state machine', () => {
  it('saves INATIVA without a schedule and PROGRAMADA with one; edits only while editable', async () => {
    const { listId } = await listOf(['Ana']);
    const idle = await create({ contactListId: listId });
    expect(idle).toMatchObject({ status: 'INATIVA', contactList: { id: listId }, whatsapp: { id: connection.id, name: 'Página Loja' }, statusTicket: 'closed', openTicket: 'disabled' });

    const far = new Date(Date.now() + 3 * 3600_000);
    const put = await call(token, 'PUT', `/campaigns/${idle.id}`, { name: 'Natal', contactListId: listId, whatsappId: connection.id, message1: 'Oi', scheduledAt: stamp(far) });
    expect(put.json()).toMatchObject({ status: 'PROGRAMADA', name: 'Natal' });
    expect(new Date(put.json().scheduledAt).getTime()).toBe(new Date(stamp(far).replace(' ', 'T')).getTime());

    const soon = await create({ contactListId: listId, scheduledAt: stamp(new Date(Date.now() + 30 * 60_000)) });
    const refused = await call(token, 'PUT', `/campaigns/${soon.id}`, { name: 'Mudou', contactListId: listId, whatsappId: connection.id, message1: 'x' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'ERR_CAMPAIGN_NOT_EDITABLE' });
    expect((await reload(soon.id)).name).toBe('Black Friday');

    // A schedule needs recipients, a connection and a message; a user needs a queue; empty strings are null.
    expect((await call(token, 'POST', '/campaigns', { name: 'Sem lista', whatsappId: connection.id, message1: 'x', scheduledAt: stamp(far) })).statusCode).toBe(400);
    expect((await call(token, 'POST', '/campaigns', { name: 'Sem texto', contactListId: listId, whatsappId: connection.id, message1: '', scheduledAt: stamp(far) })).statusCode).toBe(400);
    const noQueue = await call(token, 'POST', '/campaigns', { name: 'Sem setor', openTicket: 'enabled', userId: 1 });
    expect(noQueue.json()).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'queueId', message: 'Informe o setor' }] });
    expect((await call(token, 'POST', '/campaigns', { name: 'A' })).json()).toMatchObject({ issues: [{ path: 'name', message: 'Too Short!' }] });
    const blank = await create({ contactListId: '', whatsappId: '', message2: '' });
    expect(blank).toMatchObject({ contactListId: null, whatsappId: null, message2: null });
  });

  it('cancels only EM_ANDAMENTO and restarts only CANCELADA; a CANCELADA campaign still saves', async () => {
    const { listId } = await listOf(['Bia', 'Caio']);
    const c = await create({ contactListId: listId });
    expect((await call(token, 'POST', `/campaigns/${c.id}/cancel`)).json()).toMatchObject({ error: 'ERR_INVALID_TRANSITION' });
    expect((await call(token, 'POST', `/campaigns/${c.id}/restart`)).statusCode).toBe(409);
    await t.db.update(campaigns).set({ status: 'EM_ANDAMENTO', nextRunAt: new Date(Date.now() + 3600_000) }).where(eq(campaigns.id, c.id));
    const cancelled = await call(token, 'POST', `/campaigns/${c.id}/cancel`);
    expect(cancelled.json()).toMatchObject({ status: 'CANCELADA' });
    const saved = await call(token, 'PUT', `/campaigns/${c.id}`, { name: 'Reaberta', contactListId: listId, whatsappId: connection.id, message1: 'Oi de novo' });
    expect(saved.json()).toMatchObject({ status: 'CANCELADA', name: 'Reaberta' });
    expect((await call(token, 'POST', `/campaigns/${c.id}/restart`)).json()).toMatchObject({ status: 'EM_ANDAMENTO' });
    expect(await shippingOf(c.id)).toHaveLength(2);
    expect((await call(token, 'PUT', `/campaigns/${c.id}`, { name: 'Agora não', contactListId: listId, whatsappId: connection.id, message1: 'x' })).statusCode).toBe(409);
    await t.db.update(campaigns).set({ status: 'CANCELADA' }).where(eq(campaigns.id, c.id));
    expect((await call(token, 'DELETE', `/campaigns/${c.id}`)).statusCode).toBe(200);
    expect((await call(token, 'GET', `/campaigns/${c.id}`)).json()).toEqual({ error: 'ERR_NO_CAMPAIGN_FOUND' });
  });

  it("refuses plain users, plans without useCampaigns, and every touch of another company's campaign", async () => {
    const { listId } = await listOf(['Duda']);
    const c = await create({ contactListId: listId });
    expect((await call(userToken, 'GET', '/campaigns')).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await call(userToken, 'GET', '/campaign-settings')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/campaigns' })).statusCode).toBe(401);

    const [plan] = await t.db.insert(plans).values({ name: `Sem campanhas ${Date.now()}`, users: 5, connections: 5, queues: 5, useCampaigns: false }).returning();
    const bare = await createCompanyWithAdmin(t.db, { planId: plan!.id });
    const bareToken = (await login(t.app, bare.email, bare.password)).token;
    for (const [method, url] of [
      ['GET', '/campaigns'],
      ['POST', '/campaigns'],
      ['GET', '/campaign-settings'],
      ['POST', '/campaign-settings'],
    ] as const)
      expect((await call(bareToken, method, url, method === 'POST' ? {} : undefined)).json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED' });

    const body = { name: 'Roubo', contactListId: listId, whatsappId: connection.id, message1: 'x' };
    for (const [method, url, payload] of [
      ['GET', `/campaigns/${c.id}`],
      ['PUT', `/campaigns/${c.id}`, { name: 'Roubo' }],
      ['DELETE', `/campaigns/${c.id}`],
      ['POST', `/campaigns/${c.id}/cancel`],
      ['POST', `/campaigns/${c.id}/restart`],
      ['DELETE', `/campaigns/${c.id}/media-upload`],
    ] as const)
      expect((await call(otherToken, method, url, payload)).json(), `${method} ${url}`).toEqual({ error: 'ERR_NO_CAMPAIGN_FOUND' });
    // Another company's list or connection cannot be named either.
    expect((await call(otherToken, 'POST', '/campaigns', { ...body, whatsappId: undefined })).json()).toEqual({ error: 'ERR_NO_CONTACT_LIST_FOUND' });
    expect((await call(otherToken, 'POST', '/campaigns', { name: 'Roubo', whatsappId: connection.id })).json()).toEqual({ error: 'ERR_NO_WAPP_FOUND' });
    expect((await call(otherToken, 'GET', '/campaigns')).json()).toMatchObject({ records: [] });
    expect((await reload(c.id)).name).toBe('Black Friday');
  });
});

describe('the engine', () => {
  it('starts at scheduledAt, sends each contact one filled variant exactly once, and finishes; live on company-{id}-campaign', async () => {
    await settings({ messageInterval: 0, variables: [{ key: 'loja', value: 'Loja Centro' }] });
    const { listId, numbers } = await listOf(['Ana Paula', 'Bruno', 'Carla']);
    const c = await create({ contactListId: listId, scheduledAt: stamp(wednesday(10)), message1: 'Oi {nome}, da {loja}', message2: 'Olá {nome} ({numero})' });
    expect(c.status).toBe('PROGRAMADA');

    await runCampaign(t.app.ctx, c.id, wednesday(9, 59)); // not due yet
    expect((await reload(c.id)).status).toBe('PROGRAMADA');

    const admin = await openSocket(port, session);
    sockets.push(admin);
    const finished = new Promise<CampaignReport>((resolve) =>
      admin.on(`company-${companyId}-campaign`, (p: ListEventPayload<CampaignReport>) => {
        if (p.action === 'update' && p.record.id === c.id && p.record.status === 'FINALIZADA') resolve(p.record);
      }),
    );
    await runCampaign(t.app.ctx, c.id, wednesday(10, 0, 1));
    const report = await finished;
    expect(report).toMatchObject({ status: 'FINALIZADA', validContacts: 3, delivered: 3, confirmationRequested: 0 });
    expect(campaignReportSchema.parse((await call(token, 'GET', `/campaigns/${c.id}`)).json()).delivered).toBe(3);

    await eventually(async () => numbers.every((n) => sendsTo(n).length === 1));
    const texts = numbers.map((n) => (sendsTo(n)[0]!.body as { message: { text: string } }).message.text);
    expect(texts[0]).toMatch(/^(Oi Ana Paula, da Loja Centro|Olá Ana Paula \(\d+\))$/);
    await runCampaign(t.app.ctx, c.id, wednesday(11));
    expect(numbers.map((n) => sendsTo(n).length)).toEqual([1, 1, 1]);
  });

  it('paces messages: messageInterval, greaterInterval after longerIntervalAfter, hours and weekends', async () => {
    const paced = await settings({ messageInterval: 20, longerIntervalAfter: 5, greaterInterval: 40, sabado: 'false', domingo: 'false', startHour: '09:00', endHour: '18:00' });
    expect(paced.statusCode).toBe(200);
    const { listId } = await listOf(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'P8']);
    const c = await create({ contactListId: listId, scheduledAt: stamp(wednesday(17, 57)) });
    const sent = async () => (await shippingOf(c.id)).filter((s) => s.deliveredAt).length;
    const t0 = wednesday(17, 57);
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

    await runCampaign(t.app.ctx, c.id, t0);
    expect(await sent()).toBe(1);
    expect((await reload(c.id)).nextRunAt).toEqual(at(20));
    await runCampaign(t.app.ctx, c.id, at(10)); // too early
    expect(await sent()).toBe(1);
    for (let i = 1; i <= 4; i++) await runCampaign(t.app.ctx, c.id, at(20 * i));
    expect(await sent()).toBe(5);
    // Five sent since the last break: the long interval, then the short one again.
    expect((await reload(c.id)).nextRunAt).toEqual(at(80 + 40));
    await runCampaign(t.app.ctx, c.id, at(120));
    expect(await sent()).toBe(6);
    expect((await reload(c.id)).nextRunAt).toEqual(at(140));
    // 18:00 has passed (a Wednesday): nothing until Thursday 09:00.
    await runCampaign(t.app.ctx, c.id, at(180));
    expect(await sent()).toBe(6);
    expect((await reload(c.id)).nextRunAt).toEqual(new Date(2030, 0, 10, 9, 0));

    // A Friday evening waits for Monday, unless Saturdays are on.
    await t.db.update(campaigns).set({ nextRunAt: new Date(2030, 0, 11, 18, 30) }).where(eq(campaigns.id, c.id));
    await runCampaign(t.app.ctx, c.id, new Date(2030, 0, 11, 18, 30));
    expect((await reload(c.id)).nextRunAt).toEqual(new Date(2030, 0, 14, 9, 0));
    await settings({ sabado: true });
    await t.db.update(campaigns).set({ nextRunAt: new Date(2030, 0, 11, 18, 30) }).where(eq(campaigns.id, c.id));
    await runCampaign(t.app.ctx, c.id, new Date(2030, 0, 11, 18, 30));
    expect((await reload(c.id)).nextRunAt).toEqual(new Date(2030, 0, 12, 9, 0));
    await settings({ sabado: false, messageInterval: 0 });
  });

  it('with confirmation: asks first, sends the campaign message only after the contact answers, once', async () => {
    await settings({ messageInterval: 0 });
    const { listId, numbers } = await listOf(['Gabi']);
    const c = await create({
      contactListId: listId,
      scheduledAt: stamp(wednesday(10)),
      confirmation: true,
      confirmationMessage1: 'Posso enviar a oferta, {nome}?',
      message1: 'Aqui está a oferta, {nome}!',
    });
    await runCampaign(t.app.ctx, c.id, wednesday(10, 1));
    const [row] = await shippingOf(c.id);
    expect(row).toMatchObject({ confirmedAt: null, deliveredAt: null });
    expect(row!.confirmationRequestedAt).not.toBeNull();
    await eventually(async () => sendsTo(numbers[0]!).length === 1);
    expect(JSON.stringify(sendsTo(numbers[0]!)[0]!.body)).toContain('Posso enviar a oferta, Gabi?');
    expect(await call(token, 'GET', `/campaigns/${c.id}`).then((r) => r.json())).toMatchObject({ status: 'FINALIZADA', confirmationRequested: 1, confirmed: 0, delivered: 0 });

    for (const mid of ['m.sim.1', 'm.sim.2']) expect((await postWebhook(t.app, messengerText(connection.facebookPageId!, numbers[0]!, mid, 'Sim'))).statusCode).toBe(200);
    await eventually(async () => sendsTo(numbers[0]!).length === 2);
    expect(JSON.stringify(sendsTo(numbers[0]!)[1]!.body)).toContain('Aqui está a oferta, Gabi!');
    await eventually(async () => (await shippingOf(c.id))[0]!.deliveredAt !== null);
    expect((await shippingOf(c.id))[0]!.confirmedAt).not.toBeNull();
    await new Promise((r) => setTimeout(r, 500));
    expect(sendsTo(numbers[0]!)).toHaveLength(2);
  });

  it('cancel stops it and restart continues with whoever was not sent to', async () => {
    await settings({ messageInterval: 5, longerIntervalAfter: 0, greaterInterval: 0 });
    const { listId, numbers } = await listOf(['R1', 'R2', 'R3']);
    const c = await create({ contactListId: listId, scheduledAt: stamp(wednesday(10)) });
    await runCampaign(t.app.ctx, c.id, wednesday(10));
    expect((await call(token, 'POST', `/campaigns/${c.id}/cancel`)).json()).toMatchObject({ status: 'CANCELADA' });
    await runCampaign(t.app.ctx, c.id, wednesday(10, 5));
    expect((await shippingOf(c.id)).filter((s) => s.deliveredAt)).toHaveLength(1);
    expect((await call(token, 'POST', `/campaigns/${c.id}/restart`)).json()).toMatchObject({ status: 'EM_ANDAMENTO' });
    for (let i = 1; i <= 4; i++) await runCampaign(t.app.ctx, c.id, wednesday(10, 10, i * 5));
    expect((await reload(c.id)).status).toBe('FINALIZADA');
    await eventually(async () => numbers.every((n) => sendsTo(n).length === 1));
    await settings({ messageInterval: 0 });
  });

  it('two processes working one campaign at once (a lapsed lease) still send each number exactly once', async () => {
    await settings({ messageInterval: 0 });
    const { listId, numbers } = await listOf(Array.from({ length: 60 }, (_, i) => `Dup ${i}`));
    const c = await create({ contactListId: listId, scheduledAt: stamp(wednesday(10)) });
    const second = await createTestApp(metaEnv(graph.url), {}, t.pool.options.connectionString);
    try {
      // The second process's clock is past the first one's lease: both work the campaign at the same time.
      await Promise.all([runCampaign(t.app.ctx, c.id, wednesday(10, 0, 1)), runCampaign(second.app.ctx, c.id, wednesday(10, 2)), runCampaign(second.app.ctx, c.id, wednesday(10, 4))]);
      await t.db.update(campaigns).set({ nextRunAt: wednesday(10, 5) }).where(and(eq(campaigns.id, c.id), eq(campaigns.status, 'EM_ANDAMENTO')));
      await runCampaign(t.app.ctx, c.id, wednesday(10, 6));
      expect((await reload(c.id)).status).toBe('FINALIZADA');
      const rows = await shippingOf(c.id);
      expect(rows.filter((r) => r.deliveredAt)).toHaveLength(60);
      const ids = rows.map((r) => r.messageId!);
      const stored = await t.db.select({ ticketId: messages.ticketId }).from(messages).where(inArray(messages.ticketId, rows.map((r) => r.ticketId!)));
      expect(stored).toHaveLength(60);
      expect(new Set(ids).size).toBe(60);
      await eventually(async () => numbers.every((n) => sendsTo(n).length >= 1), 15_000);
      expect(numbers.filter((n) => sendsTo(n).length !== 1)).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it("emits nothing of a campaign to another company's sockets", async () => {
    const other = await openSocket(port, otherSession);
    sockets.push(other);
    const heard: unknown[] = [];
    other.onAny((name: string, payload: unknown) => {
      if (name.endsWith('-campaign')) heard.push(payload);
    });
    const { listId } = await listOf(['Zé']);
    const mine = await openSocket(port, session);
    sockets.push(mine);
    const created = nextEvent(mine, `company-${companyId}-campaign`);
    await create({ contactListId: listId });
    await created;
    expect(heard).toEqual([]);
  });
});
