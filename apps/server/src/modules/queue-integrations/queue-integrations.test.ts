import { SECRET_MASK, type ListEventPayload, type QueueIntegration, type QueueIntegrationPage } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plans, queueIntegrations } from '../../db/schema/index.js';
import { openSecret } from '../../secrets.js';
import { createConnection, reloadConnection } from '../../../test/connections.js';
import { FakeDialogflow } from '../../../test/fakes/dialogflow-server.js';
import { TEST_SECRETS, bearer, createCompanyWithAdmin, createTestApp, login, nextEvent, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createPlainUser, listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
let port: number;
let dialogflow: FakeDialogflow;
const sockets: Socket[] = [];

beforeAll(async () => {
  dialogflow = await FakeDialogflow.start();
  t = await createTestApp({ LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000', DIALOGFLOW_API_URL: dialogflow.url, INTEGRATION_TIMEOUT_MS: '800' });
  roles = await setupRoles(t);
  port = await listen(t);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t?.close();
  await dialogflow?.close();
});

const call = (who: LoggedIn, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(who.token), payload });

describe('queue integrations CRUD', () => {
  let created: QueueIntegration;

  it('creates an n8n integration (projectName = name), tells the company and lists it', async () => {
    const socket = await openSocket(port, roles.admin);
    sockets.push(socket);
    const heard = nextEvent<ListEventPayload<QueueIntegration>>(socket, `company-${roles.companyId}-queueIntegration`);
    const res = await call(roles.admin, 'POST', '/queueIntegration', { type: 'n8n', name: 'Fluxo vendas', urlN8N: 'http://127.0.0.1:1/hook', projectName: 'x' });
    expect(res.statusCode).toBe(200);
    created = res.json();
    expect(created).toMatchObject({ type: 'n8n', name: 'Fluxo vendas', projectName: 'Fluxo vendas', urlN8N: 'http://127.0.0.1:1/hook', typebotDelayMessage: 1000, typebotExpires: 1 });
    expect(await heard).toEqual({ action: 'create', record: created });
    const page = (await call(roles.admin, 'GET', '/queueIntegration/?searchParam=vendas')).json() as QueueIntegrationPage;
    expect(page).toMatchObject({ count: 1, hasMore: false });
    expect(page.queueIntegrations[0]?.id).toBe(created.id);
    expect(((await call(roles.admin, 'GET', '/queueIntegration?searchParam=nada')).json() as QueueIntegrationPage).count).toBe(0);
  });

  it('pages 20 at a time', async () => {
    for (let i = 0; i < 21; i++) expect((await call(roles.admin, 'POST', '/queueIntegration', { type: 'webhook', name: `Pg ${String(i).padStart(2, '0')}` })).statusCode).toBe(200);
    const first = (await call(roles.admin, 'GET', '/queueIntegration?searchParam=Pg&pageNumber=1')).json() as QueueIntegrationPage;
    const second = (await call(roles.admin, 'GET', '/queueIntegration?searchParam=Pg&pageNumber=2')).json() as QueueIntegrationPage;
    expect([first.queueIntegrations.length, first.hasMore, second.queueIntegrations.length, second.hasMore]).toEqual([20, true, 1, false]);
  });

  it('stores a Dialogflow key sealed and never answers it', async () => {
    const res = await call(roles.admin, 'POST', '/queueIntegration', {
      type: 'dialogflow',
      name: 'Agente',
      projectName: 'balcao-test',
      language: 'pt-BR',
      jsonContent: dialogflow.jsonContent,
    });
    expect(res.statusCode).toBe(200);
    const record = res.json() as QueueIntegration;
    expect(record).toMatchObject({ projectName: 'balcao-test', jsonContent: SECRET_MASK });
    expect(res.body).not.toContain('PRIVATE KEY');
    const [row] = await t.db.select().from(queueIntegrations).where(eq(queueIntegrations.id, record.id));
    expect(row!.jsonContent).not.toContain('PRIVATE KEY');
    expect(openSecret(TEST_SECRETS, row!.jsonContent!)).toBe(dialogflow.jsonContent);
    // Saving the dialog back with the mask keeps the stored key.
    expect((await call(roles.admin, 'PUT', `/queueIntegration/${record.id}`, { name: 'Agente 2', jsonContent: SECRET_MASK })).json()).toMatchObject({ name: 'Agente 2', jsonContent: SECRET_MASK });
    const [after] = await t.db.select().from(queueIntegrations).where(eq(queueIntegrations.id, record.id));
    expect(openSecret(TEST_SECRETS, after!.jsonContent!)).toBe(dialogflow.jsonContent);
  });

  it('updates and deletes, telling the company', async () => {
    const socket = sockets[0]!;
    const updated = nextEvent<ListEventPayload<QueueIntegration>>(socket, `company-${roles.companyId}-queueIntegration`);
    const res = await call(roles.admin, 'PUT', `/queueIntegration/${created.id}`, { type: 'typebot', typebotSlug: 'vendas', typebotDelayMessage: 0 });
    expect(res.json()).toMatchObject({ type: 'typebot', typebotSlug: 'vendas', typebotDelayMessage: 0, projectName: 'Fluxo vendas' });
    expect((await updated).action).toBe('update');
    expect((await call(roles.admin, 'GET', `/queueIntegration/${created.id}`)).json()).toMatchObject({ typebotSlug: 'vendas' });
    const deleted = nextEvent(socket, `company-${roles.companyId}-queueIntegration`);
    expect((await call(roles.admin, 'DELETE', `/queueIntegration/${created.id}`)).statusCode).toBe(200);
    expect(await deleted).toEqual({ action: 'delete', id: created.id });
    expect((await call(roles.admin, 'GET', `/queueIntegration/${created.id}`)).json()).toEqual({ error: 'ERR_NO_INTEGRATION_FOUND' });
  });

  it('validates: name 2 to 50, known type, http url; a taken name is 409', async () => {
    const short = await call(roles.admin, 'POST', '/queueIntegration', { type: 'n8n', name: 'a' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name', message: 'Too Short!' }] });
    expect((await call(roles.admin, 'POST', '/queueIntegration', { type: 'n8n', name: 'x'.repeat(51) })).json()).toMatchObject({ issues: [{ message: 'Too Long!' }] });
    expect((await call(roles.admin, 'POST', '/queueIntegration', { type: 'zapier', name: 'Zap' })).statusCode).toBe(400);
    expect((await call(roles.admin, 'POST', '/queueIntegration', { type: 'webhook', name: 'Bad url', urlN8N: 'javascript:alert(1)' })).statusCode).toBe(400);
    await call(roles.admin, 'POST', '/queueIntegration', { type: 'webhook', name: 'Único' });
    const taken = await call(roles.admin, 'POST', '/queueIntegration', { type: 'webhook', name: 'Único' });
    expect([taken.statusCode, taken.json().error]).toEqual([409, 'ERR_INTEGRATION_NAME_ALREADY_EXISTS']);
  });
});

describe('who may use them', () => {
  it('refuses plain users (403) and other companies (404), and needs a login', async () => {
    const own = (await call(roles.admin, 'POST', '/queueIntegration', { type: 'webhook', name: 'Privada' })).json() as QueueIntegration;
    expect((await call(roles.user, 'GET', '/queueIntegration')).statusCode).toBe(403);
    expect((await call(roles.user, 'POST', '/queueIntegration', { type: 'webhook', name: 'Nope' })).statusCode).toBe(403);
    for (const [method, payload] of [['GET'], ['PUT', { name: 'Roubada' }], ['DELETE']] as const) {
      const res = await call(roles.otherAdmin, method, `/queueIntegration/${own.id}`, payload);
      expect([res.statusCode, res.json().error]).toEqual([404, 'ERR_NO_INTEGRATION_FOUND']);
    }
    expect(((await call(roles.otherAdmin, 'GET', '/queueIntegration?searchParam=Privada')).json() as QueueIntegrationPage).count).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/queueIntegration' })).statusCode).toBe(401);
    expect((await call(roles.admin, 'GET', `/queueIntegration/${own.id}`)).json()).toMatchObject({ name: 'Privada' });
  });

  it('lets a connection use only an integration of its own company (PUT /whatsapp/{id} integrationId)', async () => {
    const own = (await call(roles.admin, 'POST', '/queueIntegration', { type: 'webhook', name: 'Da conexão' })).json() as QueueIntegration;
    const foreign = (await call(roles.otherAdmin, 'POST', '/queueIntegration', { type: 'webhook', name: 'Alheia' })).json() as QueueIntegration;
    const conn = await createConnection(t.db, roles.companyId);
    const refused = await call(roles.admin, 'PUT', `/whatsapp/${conn.id}`, { integrationId: foreign.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'integrationId' }] });
    expect((await reloadConnection(t.db, conn.id))!.integrationId).toBeNull();
    expect((await call(roles.admin, 'PUT', `/whatsapp/${conn.id}`, { integrationId: own.id })).statusCode).toBe(200);
    expect((await reloadConnection(t.db, conn.id))!.integrationId).toBe(own.id);
  });

  it("lets a queue name only its company's integration and file list", async () => {
    const own = (await call(roles.admin, 'POST', '/queueIntegration', { type: 'n8n', name: 'Da fila' })).json() as QueueIntegration;
    const foreign = (await call(roles.otherAdmin, 'POST', '/queueIntegration', { type: 'n8n', name: 'Da outra fila' })).json() as QueueIntegration;
    const ownList = (await call(roles.admin, 'POST', '/files', { name: 'Lista da fila', message: 'Oi' })).json() as { id: number };
    const foreignList = (await call(roles.otherAdmin, 'POST', '/files', { name: 'Lista alheia', message: 'Oi' })).json() as { id: number };
    const queue = (await call(roles.admin, 'POST', '/queue', { name: 'Fila integrada', color: '#123456', integrationId: own.id, fileListId: ownList.id })).json() as { id: number };
    expect(queue).toMatchObject({ integrationId: own.id, fileListId: ownList.id });
    for (const body of [{ integrationId: foreign.id }, { fileListId: foreignList.id }]) {
      const res = await call(roles.admin, 'PUT', `/queue/${queue.id}`, body);
      expect([res.statusCode, res.json().error]).toEqual([400, 'ERR_VALIDATION']);
    }
    expect((await call(roles.admin, 'PUT', `/queue/${queue.id}`, { integrationId: null, fileListId: null })).json()).toMatchObject({ integrationId: null, fileListId: null });
  });

  it('answers 403 ERR_PLAN_FEATURE_DISABLED without useIntegrations', async () => {
    const [plan] = await t.db.insert(plans).values({ name: 'Sem integrações', users: 5, connections: 1, queues: 1, useIntegrations: false }).returning();
    const c = await createCompanyWithAdmin(t.db, { planId: plan!.id });
    const admin = await login(t.app, c.email, c.password);
    const post = await call(admin, 'POST', '/queueIntegration', { type: 'webhook', name: 'Hook' });
    expect([post.statusCode, post.json().error]).toEqual([403, 'ERR_PLAN_FEATURE_DISABLED']);
    expect((await call(admin, 'GET', '/queueIntegration')).statusCode).toBe(403);
    expect(await t.db.select().from(queueIntegrations).where(eq(queueIntegrations.companyId, c.company.id))).toHaveLength(0);
    await t.db.update(plans).set({ useIntegrations: true }).where(eq(plans.id, plan!.id));
    expect((await call(admin, 'GET', '/queueIntegration')).statusCode).toBe(200);
  });
});

describe('POST /queueIntegration/testSession', () => {
  const body = () => ({ projectName: 'balcao-test', jsonContent: dialogflow.jsonContent, language: 'pt-BR' });

  it('runs a real detectIntent signed with the service account', async () => {
    dialogflow.intents.set('olá', { displayName: 'Welcome', replies: ['Oi! Como posso ajudar?'] });
    const res = await call(roles.admin, 'POST', '/queueIntegration/testSession', body());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'ok', replies: ['Oi! Como posso ajudar?'] });
    expect(dialogflow.calls.at(-1)).toMatchObject({ project: 'balcao-test', text: 'Olá', languageCode: 'pt-BR' });
  });

  it('tests a saved integration with its stored key when given the mask and its id', async () => {
    const saved = (await call(roles.admin, 'POST', '/queueIntegration', { type: 'dialogflow', name: 'Salvo', ...body() })).json() as QueueIntegration;
    expect((await call(roles.admin, 'POST', '/queueIntegration/testSession', { ...body(), jsonContent: SECRET_MASK, id: saved.id })).statusCode).toBe(200);
    const foreign = await call(roles.otherAdmin, 'POST', '/queueIntegration/testSession', { ...body(), jsonContent: SECRET_MASK, id: saved.id });
    expect([foreign.statusCode, foreign.json().error]).toEqual([404, 'ERR_NO_INTEGRATION_FOUND']);
  });

  it('answers 400 ERR_INTEGRATION_TEST_FAILED for a bad key, a refusing, a failing or a slow agent', async () => {
    const failed = async (payload: object) => {
      const res = await call(roles.admin, 'POST', '/queueIntegration/testSession', payload);
      return [res.statusCode, res.json().error];
    };
    const expected = [400, 'ERR_INTEGRATION_TEST_FAILED'];
    expect(await failed({ ...body(), jsonContent: '{not json' })).toEqual(expected);
    const other = await FakeDialogflow.start();
    await other.close();
    // A key the agent does not know: 401 from the fake.
    expect(await failed({ ...body(), jsonContent: other.jsonContent })).toEqual(expected);
    dialogflow.failWith = 500;
    expect(await failed(body())).toEqual(expected);
    dialogflow.failWith = null;
    dialogflow.delayMs = 2000;
    const started = Date.now();
    expect(await failed(body())).toEqual(expected);
    expect(Date.now() - started).toBeLessThan(1900);
    dialogflow.delayMs = 0;
  });

  it('validates its body and keeps the plan and role rules', async () => {
    expect((await call(roles.admin, 'POST', '/queueIntegration/testSession', { projectName: 'p' })).statusCode).toBe(400);
    expect((await call(roles.user, 'POST', '/queueIntegration/testSession', body())).statusCode).toBe(403);
    const plain = await createPlainUser(t, roles.companyId);
    expect((await call(plain, 'GET', '/queueIntegration')).statusCode).toBe(403);
  });
});
