import type { Prompt } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plans, prompts, whatsapps } from '../../db/schema/index.js';
import { openSecret } from '../../secrets.js';
import { bearer, collect, createCompanyWithAdmin, login, sleep, TEST_SECRETS, type TestApp } from '../../../test/helpers.js';
import { createAdminTestApp, listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';
import { createQueue } from '../../../test/tickets.js';
import { createConnection } from '../../../test/connections.js';

let t: TestApp;
let r: Roles;
let queueId: number;
let otherQueueId: number;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), payload });

const body = (over: object = {}) => ({ name: `Vendas IA ${Math.random().toString(36).slice(2, 8)}`, prompt: 'Você é o assistente da loja.', apiKey: 'sk-test-abcdef1234', queueId, ...over });

beforeAll(async () => {
  t = await createAdminTestApp();
  r = await setupRoles(t);
  queueId = (await createQueue(t.db, r.companyId, 'Vendas')).id;
  otherQueueId = (await createQueue(t.db, r.otherCompanyId, 'Outra')).id;
});

afterAll(() => t.close());

describe('prompts API', () => {
  it('creates with the spec defaults, seals the key and answers it masked; lists and reads it with its queue', async () => {
    const res = await call('POST', '/prompt', r.admin.token, body({ name: 'Assistente' }));
    expect(res.statusCode).toBe(200);
    const created = res.json<Prompt>();
    expect(created).toMatchObject({ name: 'Assistente', voice: 'texto', maxTokens: 100, temperature: 1, maxMessages: 10, queueId, queue: { id: queueId, name: expect.stringContaining('Vendas') } });
    expect(created.apiKey).toBe('••••••••1234');
    expect(res.body).not.toContain('sk-test-abcdef1234');

    const [row] = await t.db.select().from(prompts).where(eq(prompts.id, created.id));
    expect(row!.apiKey).not.toContain('sk-test');
    expect(openSecret(TEST_SECRETS, row!.apiKey)).toBe('sk-test-abcdef1234');

    const list = await call('GET', '/prompt', r.admin.token);
    expect(list.statusCode).toBe(200);
    expect(list.json<{ prompts: Prompt[] }>().prompts.map((p) => p.id)).toContain(created.id);
    expect(list.body).not.toContain('sk-test');
    expect((await call('GET', `/prompt/${created.id}`, r.admin.token)).json()).toMatchObject({ id: created.id, apiKey: '••••••••1234' });
  });

  it('updates: the mask keeps the stored key, a new key replaces it, a neural voice needs its Azure key and region', async () => {
    const created = (await call('POST', '/prompt', r.admin.token, body())).json<Prompt>();
    const kept = await call('PUT', `/prompt/${created.id}`, r.admin.token, { apiKey: created.apiKey, maxTokens: 300, temperature: 0.5 });
    expect(kept.json()).toMatchObject({ maxTokens: 300, temperature: 0.5, apiKey: '••••••••1234' });
    const sealed = async () => openSecret(TEST_SECRETS, (await t.db.select().from(prompts).where(eq(prompts.id, created.id)))[0]!.apiKey);
    expect(await sealed()).toBe('sk-test-abcdef1234');

    expect((await call('PUT', `/prompt/${created.id}`, r.admin.token, { apiKey: 'sk-new-key-9876' })).json()).toMatchObject({ apiKey: '••••••••9876' });
    expect(await sealed()).toBe('sk-new-key-9876');

    const noKey = await call('PUT', `/prompt/${created.id}`, r.admin.token, { voice: 'Francisca' });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    const voiced = await call('PUT', `/prompt/${created.id}`, r.admin.token, { voice: 'Francisca', voiceKey: 'azure-key-5555', voiceRegion: 'brazilsouth' });
    expect(voiced.json()).toMatchObject({ voice: 'Francisca', voiceKey: '••••••••5555', voiceRegion: 'brazilsouth' });
  });

  it('refuses bad input: no queue (Informe o setor), unknown voice, out-of-range numbers, duplicate name', async () => {
    const noQueue = await call('POST', '/prompt', r.admin.token, body({ queueId: undefined }));
    expect(noQueue.statusCode).toBe(400);
    expect(noQueue.body).toContain('Informe o setor');
    expect((await call('POST', '/prompt', r.admin.token, body({ voice: 'Siri' }))).statusCode).toBe(400);
    expect((await call('POST', '/prompt', r.admin.token, body({ maxMessages: 0 }))).statusCode).toBe(400);
    expect((await call('POST', '/prompt', r.admin.token, body({ temperature: 3 }))).statusCode).toBe(400);
    expect((await call('POST', '/prompt', r.admin.token, body({ apiKey: '' }))).statusCode).toBe(400);
    await call('POST', '/prompt', r.admin.token, body({ name: 'Duplicado' }));
    const dup = await call('POST', '/prompt', r.admin.token, body({ name: 'duplicado' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: 'ERR_PROMPT_ALREADY_EXISTS' });
  });

  it('deletes with the message the page shows; connections naming it lose it', async () => {
    const created = (await call('POST', '/prompt', r.admin.token, body())).json<Prompt>();
    const conn = await createConnection(t.db, r.companyId, { promptId: created.id });
    const res = await call('DELETE', `/prompt/${created.id}`, r.admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Prompt deleted' });
    expect((await call('GET', `/prompt/${created.id}`, r.admin.token)).json()).toEqual({ error: 'ERR_NO_PROMPT_FOUND' });
    expect((await t.db.select().from(whatsapps).where(eq(whatsapps.id, conn.id)))[0]!.promptId).toBeNull();
  });

  it('announces create, update and delete on company-{id}-prompt to the admins only', async () => {
    const port = await listen(t);
    const adminSocket = await openSocket(port, r.admin);
    const userSocket = await openSocket(port, r.user);
    const otherSocket = await openSocket(port, r.otherAdmin);
    const heard = collect<{ action: string; record?: Prompt; id?: number }>(adminSocket, `company-${r.companyId}-prompt`);
    const userHeard = collect(userSocket, `company-${r.companyId}-prompt`);
    const otherHeard = collect(otherSocket, `company-${r.otherCompanyId}-prompt`);
    const created = (await call('POST', '/prompt', r.admin.token, body())).json<Prompt>();
    await call('PUT', `/prompt/${created.id}`, r.admin.token, { maxTokens: 50 });
    await call('DELETE', `/prompt/${created.id}`, r.admin.token);
    await sleep(300);
    expect(heard.map((e) => e.action)).toEqual(['create', 'update', 'delete']);
    expect(heard[0]!.record).toMatchObject({ id: created.id, apiKey: '••••••••1234' });
    expect(heard[2]).toEqual({ action: 'delete', id: created.id });
    expect(userHeard).toEqual([]);
    expect(otherHeard).toEqual([]);
    for (const s of [adminSocket, userSocket, otherSocket]) s.close();
  });

  it('refuses plain users (403) and companies whose plan lacks useOpenAi (403), and changes nothing', async () => {
    expect((await call('GET', '/prompt', r.user.token)).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await call('POST', '/prompt', r.user.token, body())).statusCode).toBe(403);
    const [plan] = await t.db.insert(plans).values({ name: 'Sem IA', users: 5, connections: 1, queues: 1, useOpenAi: false }).returning();
    const noAi = await createCompanyWithAdmin(t.db, { planId: plan!.id });
    const session = await login(t.app, noAi.email, noAi.password);
    const ownQueue = await createQueue(t.db, noAi.company.id, 'Fila');
    const res = await call('POST', '/prompt', session.token, body({ queueId: ownQueue.id }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    expect((await call('GET', '/prompt', session.token)).statusCode).toBe(403);
    expect(await t.db.select().from(prompts).where(eq(prompts.companyId, noAi.company.id))).toEqual([]);
  });

  it("cross-tenant: another company's prompt is 404 to read, change or delete; another company's queue or prompt is refused", async () => {
    const mine = (await call('POST', '/prompt', r.admin.token, body())).json<Prompt>();
    for (const [method, payload] of [['GET'], ['PUT', { maxTokens: 5 }], ['DELETE']] as const) {
      const res = await call(method, `/prompt/${mine.id}`, r.otherAdmin.token, payload);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_PROMPT_FOUND' });
    }
    expect((await call('GET', '/prompt', r.otherAdmin.token)).json<{ prompts: Prompt[] }>().prompts.map((p) => p.id)).not.toContain(mine.id);
    expect((await call('GET', `/prompt/${mine.id}`, r.admin.token)).json()).toMatchObject({ maxTokens: 100 });

    const foreignQueue = await call('POST', '/prompt', r.admin.token, body({ queueId: otherQueueId }));
    expect(foreignQueue.statusCode).toBe(400);
    expect((await call('PUT', `/prompt/${mine.id}`, r.admin.token, { queueId: otherQueueId })).statusCode).toBe(400);

    // A connection of the other company cannot point at this company's prompt.
    const theirs = await createConnection(t.db, r.otherCompanyId);
    const put = await call('PUT', `/whatsapp/${theirs.id}`, r.otherAdmin.token, { promptId: mine.id });
    expect(put.statusCode).toBe(400);
    expect(put.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    const own = await createConnection(t.db, r.companyId);
    expect((await call('PUT', `/whatsapp/${own.id}`, r.admin.token, { promptId: mine.id })).json()).toMatchObject({ promptId: mine.id, prompt: { id: mine.id, name: mine.name } });
  });
});
