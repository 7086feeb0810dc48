import { chatbotOptionSchema, queueSchema, type ChatbotOption, type Queue } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileLists, plans, queueIntegrations } from '../../db/schema/index.js';
import { bearer, type TestApp } from '../../../test/helpers.js';
import { createAdminTestApp, setupRoles, type Roles } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
let planId: number;
let sales: Queue;
let support: Queue;
let theirQueue: Queue;
beforeAll(async () => {
  t = await createAdminTestApp();
  const [plan] = await t.db.insert(plans).values({ name: 'Bots', users: 10, connections: 1, queues: 10, useIntegrations: false }).returning();
  planId = plan!.id;
  roles = await setupRoles(t, { planId });
  sales = queueSchema.parse((await call(roles.admin.token, 'POST', '/queue', { name: 'Vendas', color: '#112233' })).json());
  support = queueSchema.parse((await call(roles.admin.token, 'POST', '/queue', { name: 'Suporte', color: '#332211' })).json());
  theirQueue = queueSchema.parse((await call(roles.otherAdmin.token, 'POST', '/queue', { name: 'Deles', color: '#332211' })).json());
});
afterAll(() => t.close());

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

const names = (options: ChatbotOption[]): unknown[] => options.map((o) => (o.options.length ? [o.name, names(o.options)] : o.name));

describe('queue option trees through PUT /queue/{id}', () => {
  it('saves nested options at any depth and GET /queue/{id} answers the tree in answer order', async () => {
    const res = await call(roles.admin.token, 'PUT', `/queue/${sales.id}`, {
      ativarRoteador: true,
      tempoRoteador: 5,
      chatbots: [
        {
          name: 'Planos',
          greetingMessage: 'Qual plano?',
          options: [{ name: 'Básico', greetingMessage: 'Nível 3', options: [{ name: 'Anual', greetingMessage: 'Fim' }] }, { name: 'Premium' }],
        },
        { name: 'Falar com o suporte', queueType: 'queue', optQueueId: support.id },
      ],
    });
    expect(res.statusCode).toBe(200);
    const queue = queueSchema.parse(res.json());
    expect(queue).toMatchObject({ ativarRoteador: true, tempoRoteador: 5 });
    expect(names(queue.chatbots!)).toEqual([['Planos', [['Básico', ['Anual']], 'Premium']], 'Falar com o suporte']);
    const fetched = queueSchema.parse((await call(roles.user.token, 'GET', `/queue/${sales.id}`)).json());
    expect(fetched.chatbots).toEqual(queue.chatbots);
    expect(fetched.chatbots![1]).toMatchObject({ queueType: 'queue', optQueueId: support.id, position: 1, parentId: null });
    expect(fetched.chatbots![0]!.options[1]).toMatchObject({ position: 1, parentId: fetched.chatbots![0]!.id });
  });

  it('keeps the ids of options sent back, creates new ones and deletes the ones left out', async () => {
    const before = queueSchema.parse((await call(roles.admin.token, 'GET', `/queue/${sales.id}`)).json()).chatbots!;
    const planos = before[0]!;
    const res = await call(roles.admin.token, 'PUT', `/queue/${sales.id}`, {
      chatbots: [{ id: planos.id, name: 'Planos e preços', greetingMessage: 'Qual?', options: [{ id: planos.options[1]!.id, name: 'Premium' }, { name: 'Empresarial' }] }],
    });
    expect(res.statusCode).toBe(200);
    const after = queueSchema.parse(res.json()).chatbots!;
    expect(names(after)).toEqual([['Planos e preços', ['Premium', 'Empresarial']]]);
    expect(after[0]!.id).toBe(planos.id);
    expect(after[0]!.options[0]!.id).toBe(planos.options[1]!.id);
    expect((await call(roles.admin.token, 'GET', `/chatbot/${planos.options[0]!.id}`)).statusCode).toBe(404);
  });

  it('refuses short names, options without the message to go deeper, and the router minutes off the list', async () => {
    const short = await call(roles.admin.token, 'PUT', `/queue/${sales.id}`, { chatbots: [{ name: 'abc' }] });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ message: 'Too Short!' }] });
    const deeper = await call(roles.admin.token, 'PUT', `/queue/${sales.id}`, { chatbots: [{ name: 'Sem mensagem', options: [{ name: 'Filho' }] }] });
    expect(deeper.statusCode).toBe(400);
    expect(JSON.stringify(deeper.json())).toContain('A message is required to add options');
    expect((await call(roles.admin.token, 'PUT', `/queue/${sales.id}`, { tempoRoteador: 7 })).statusCode).toBe(400);
  });

  it('refuses a missing or foreign target, a queue option back into its own queue, and an option sent twice', async () => {
    const cases: [object, string][] = [
      [{ name: 'Sem alvo', queueType: 'queue' }, 'ERR_CHATBOT_INVALID_TARGET'],
      [{ name: 'Fila alheia', queueType: 'queue', optQueueId: theirQueue.id }, 'ERR_CHATBOT_INVALID_TARGET'],
      [{ name: 'Usuário alheio', queueType: 'attendent', optUserId: roles.otherAdmin.user.id }, 'ERR_CHATBOT_INVALID_TARGET'],
      [{ name: 'Arquivo inexistente', queueType: 'file', optFileId: 999_999 }, 'ERR_CHATBOT_INVALID_TARGET'],
      [{ name: 'Volta pra cá', queueType: 'queue', optQueueId: sales.id }, 'ERR_CHATBOT_CYCLE'],
    ];
    for (const [option, error] of cases) {
      const res = await call(roles.admin.token, 'PUT', `/queue/${sales.id}`, { chatbots: [option] });
      expect([res.statusCode, res.json()]).toEqual([400, expect.objectContaining({ error })]);
    }
    const id = queueSchema.parse((await call(roles.admin.token, 'GET', `/queue/${sales.id}`)).json()).chatbots![0]!.id;
    const twice = await call(roles.admin.token, 'PUT', `/queue/${sales.id}`, {
      chatbots: [{ id, name: 'Uma vez', greetingMessage: 'x', options: [{ id, name: 'Outra vez' }] }],
    });
    expect(twice.json()).toMatchObject({ error: 'ERR_CHATBOT_CYCLE' });
    // Nothing of the refused saves was stored.
    expect(names(queueSchema.parse((await call(roles.admin.token, 'GET', `/queue/${sales.id}`)).json()).chatbots!)).toEqual([['Planos e preços', ['Premium', 'Empresarial']]]);
  });

  it('needs the plan flag useIntegrations for an integration option', async () => {
    const [integration] = await t.db.insert(queueIntegrations).values({ companyId: roles.companyId, type: 'webhook', name: 'Gancho', urlN8N: 'http://127.0.0.1:9/x' }).returning();
    const option = { name: 'Robô externo', queueType: 'integration', optIntegrationId: integration!.id };
    const refused = await call(roles.admin.token, 'POST', '/chatbot', { queueId: support.id, ...option });
    expect([refused.statusCode, refused.json().error]).toEqual([403, 'ERR_PLAN_FEATURE_DISABLED']);
    await t.db.update(plans).set({ useIntegrations: true }).where(eq(plans.id, planId));
    const saved = await call(roles.admin.token, 'POST', '/chatbot', { queueId: support.id, ...option });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ queueType: 'integration', optIntegrationId: integration!.id, optQueueId: null });
    expect((await call(roles.admin.token, 'DELETE', `/chatbot/${saved.json().id}`)).statusCode).toBe(200);
  });
});

describe('/chatbot endpoints', () => {
  let root: ChatbotOption;
  it('creates options under a parent, last among their siblings, and reads one with its subtree', async () => {
    const [file] = await t.db.insert(fileLists).values({ companyId: roles.companyId, name: 'Catálogo', message: 'Veja' }).returning();
    const res = await call(roles.admin.token, 'POST', '/chatbot', {
      queueId: support.id,
      name: 'Menu técnico',
      greetingMessage: 'Escolha',
      options: [{ name: 'Manual em PDF', queueType: 'file', optFileId: file!.id, closeTicket: true }],
    });
    expect(res.statusCode).toBe(200);
    root = chatbotOptionSchema.parse(res.json());
    const child = await call(roles.admin.token, 'POST', '/chatbot', { queueId: support.id, parentId: root.id, name: 'Atendente Ana', queueType: 'attendent', optUserId: roles.user.user.id });
    expect(child.json()).toMatchObject({ parentId: root.id, position: 1, optUserId: roles.user.user.id });
    const read = chatbotOptionSchema.parse((await call(roles.user.token, 'GET', `/chatbot/${root.id}`)).json());
    expect(names([read])).toEqual([['Menu técnico', ['Manual em PDF', 'Atendente Ana']]]);
    expect(read.options[0]).toMatchObject({ queueType: 'file', closeTicket: true });
  });

  it('updates fields, replaces nested options, refuses nesting an option inside itself, and deletes with renumbering', async () => {
    const put = await call(roles.admin.token, 'PUT', `/chatbot/${root.id}`, { name: 'Menu de suporte' });
    expect(put.json()).toMatchObject({ name: 'Menu de suporte', greetingMessage: 'Escolha' });
    expect(names([put.json() as ChatbotOption])).toEqual([['Menu de suporte', ['Manual em PDF', 'Atendente Ana']]]);
    const loop = await call(roles.admin.token, 'PUT', `/chatbot/${root.id}`, { options: [{ id: root.id, name: 'Eu mesmo' }] });
    expect(loop.json()).toMatchObject({ error: 'ERR_CHATBOT_CYCLE' });
    const first = (put.json() as ChatbotOption).options[0]!;
    expect((await call(roles.admin.token, 'DELETE', `/chatbot/${first.id}`)).statusCode).toBe(200);
    const after = chatbotOptionSchema.parse((await call(roles.admin.token, 'GET', `/chatbot/${root.id}`)).json());
    expect(after.options.map((o) => [o.name, o.position])).toEqual([['Atendente Ana', 0]]);
  });

  it('is admin-only for writes and never crosses companies', async () => {
    expect((await call(roles.user.token, 'POST', '/chatbot', { queueId: support.id, name: 'Tentativa' })).statusCode).toBe(403);
    expect((await call(roles.user.token, 'DELETE', `/chatbot/${root.id}`)).statusCode).toBe(403);
    expect((await call(roles.otherAdmin.token, 'GET', `/chatbot/${root.id}`)).json()).toEqual({ error: 'ERR_NO_CHATBOT_FOUND' });
    expect((await call(roles.otherAdmin.token, 'PUT', `/chatbot/${root.id}`, { name: 'Invasão' })).statusCode).toBe(404);
    expect((await call(roles.otherAdmin.token, 'DELETE', `/chatbot/${root.id}`)).statusCode).toBe(404);
    expect((await call(roles.otherAdmin.token, 'POST', '/chatbot', { queueId: support.id, name: 'Na fila alheia' })).json()).toEqual({ error: 'ERR_NO_QUEUE_FOUND' });
    expect((await call(roles.otherAdmin.token, 'POST', '/chatbot', { queueId: theirQueue.id, parentId: root.id, name: 'Pai alheio' })).statusCode).toBe(404);
    // Ids of another company's options cannot be pulled into a tree.
    const steal = await call(roles.otherAdmin.token, 'PUT', `/queue/${theirQueue.id}`, { chatbots: [{ id: root.id, name: 'Roubado' }] });
    expect(steal.json()).toEqual({ error: 'ERR_NO_CHATBOT_FOUND' });
    expect((await call(roles.admin.token, 'GET', `/chatbot/${root.id}`)).json()).toMatchObject({ name: 'Menu de suporte' });
  });
});
