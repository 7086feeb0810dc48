import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatbots, plans, queueIntegrations, queues, ticketLogs, tickets, messages } from '../../db/schema/index.js';
import type { Connection } from '../../channels/adapter.js';
import type { InboundMessage } from '../../channels/inbound-event.js';
import { processInbound } from '../conversations/inbound.js';
import { sealSecret } from '../../secrets.js';
import { TEST_SECRETS, bearer, createCompanyWithAdmin, createTestApp, login, type TestApp } from '../../../test/helpers.js';
import { outgoingOf } from '../../../test/customer.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { createQueue } from '../../../test/tickets.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { FakeDialogflow } from '../../../test/fakes/dialogflow-server.js';
import { FakeReceiver } from '../../../test/fakes/integration-receiver.js';
import { FakeTypebot } from '../../../test/fakes/typebot-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { startJobs, stopJobs } from '../../jobs/boss.js';
import { registerIntegrationJobs } from './jobs.js';

let t: TestApp;
let graph: FakeGraph;
let receiver: FakeReceiver;
let dialogflow: FakeDialogflow;
let typebot: FakeTypebot;
let companyId: number;
let seq = 0;

beforeAll(async () => {
  [graph, receiver, dialogflow, typebot] = await Promise.all([FakeGraph.start(), FakeReceiver.start(), FakeDialogflow.start(), FakeTypebot.start()]);
  t = await createTestApp({
    ...metaEnv(graph.url),
    DIALOGFLOW_API_URL: dialogflow.url,
    INTEGRATION_TIMEOUT_MS: '600',
    INTEGRATION_RETRY_BASE_MS: '150',
    INTEGRATION_MAX_ATTEMPTS: '2',
  });
  companyId = (await createCompanyWithAdmin(t.db)).company.id;
});
afterAll(async () => {
  await t?.close();
  await Promise.all([graph?.close(), receiver?.close(), dialogflow?.close(), typebot?.close()]);
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.queue.length = 0;
  receiver.answer = { body: { text: 'ok' } };
});

async function integration(values: Partial<typeof queueIntegrations.$inferInsert> & { type: 'n8n' | 'webhook' | 'dialogflow' | 'typebot' }) {
  seq += 1;
  const [row] = await t.db.insert(queueIntegrations).values({ companyId, name: `Int ${seq}`, urlN8N: receiver.hookUrl, ...values }).returning();
  return row!;
}

async function customerSays(conn: Connection, number: string, body: string) {
  seq += 1;
  const event: InboundMessage = {
    kind: 'message',
    wid: `m_integ_${seq}`,
    fromMe: false,
    body,
    mediaType: 'chat',
    at: new Date(),
    chat: { number, name: 'Maria Souza', remoteJid: number, isGroup: false },
    raw: {},
  };
  const result = await processInbound(t.app.ctx, conn, event);
  if (result.outcome !== 'stored') throw new Error(`not stored: ${result.outcome}`);
  return result;
}

const outgoing = (ticketId: number) => outgoingOf(t.db, ticketId);
const logTypes = async (ticketId: number) => (await t.db.select().from(ticketLogs).where(eq(ticketLogs.ticketId, ticketId)).orderBy(asc(ticketLogs.id))).map((l) => l.type);
const ticketOf = async (id: number) => (await t.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
const number = () => `5511977${String(++seq).padStart(6, '0')}`;

describe('n8n and webhook at run time', () => {
  it("POSTs the customer's message (ticket, contact, message, connection) and sends the { text } answer back", async () => {
    const hook = await integration({ type: 'webhook' });
    const conn = await createConnection(t.db, companyId, { integrationId: hook.id, greetingMessage: 'Saudação que não deve sair' });
    receiver.answer = { body: { text: 'Olá do fluxo!' } };
    const phone = number();
    const { ticketId, messageId } = await customerSays(conn, phone, 'Quero um orçamento');
    const sent = await eventually(async () => (await outgoing(ticketId)).find((m) => m.body === 'Olá do fluxo!'));
    expect(sent.fromMe).toBe(true);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({
      ticket: { id: ticketId, status: 'pending', companyId },
      contact: { name: 'Maria Souza', number: phone },
      message: { id: messageId, body: 'Quero um orçamento', fromMe: false },
      connection: { id: conn.id, name: conn.name, channel: 'facebook' },
    });
    // The integration answered instead of the greeting.
    expect((await outgoing(ticketId)).map((m) => m.body)).toEqual(['Olá do fluxo!']);
  });

  it('sends { message } and each item of an array, fetching a mediaUrl', async () => {
    const flow = await integration({ type: 'n8n' });
    const conn = await createConnection(t.db, companyId, { integrationId: flow.id });
    receiver.queue.push({ body: { message: 'Primeira' } }, { body: [{ text: 'Segunda' }, { mediaUrl: receiver.mediaUrl, text: 'Nosso logo' }] });
    const phone = number();
    const { ticketId } = await customerSays(conn, phone, 'oi');
    await eventually(async () => (await outgoing(ticketId)).length === 1);
    await customerSays(conn, phone, 'e o logo?');
    const sent = await eventually(async () => {
      const rows = await outgoing(ticketId);
      return rows.length === 3 && rows;
    });
    expect(sent.map((m) => [m.body, m.mediaType])).toEqual([
      ['Primeira', 'chat'],
      ['Segunda', 'chat'],
      ['Nosso logo', 'image'],
    ]);
    expect(sent[2]!.mediaUrl).toBeTruthy();
  });

  it('takes a ticket handed over by a bot option (useIntegration + integrationId), even in a queue', async () => {
    const hook = await integration({ type: 'webhook' });
    const queue = await createQueue(t.db, companyId, `Fila ${seq}`);
    const conn = await createConnection(t.db, companyId, {}, [queue.id]);
    const phone = number();
    const first = await customerSays(conn, phone, 'primeira');
    // The bot is done with the first message (it waits in the queue) before the hand-over.
    await eventually(async () => (await ticketOf(first.ticketId)).botFinishedAt);
    await t.db.update(tickets).set({ queueId: queue.id, useIntegration: true, integrationId: hook.id }).where(eq(tickets.id, first.ticketId));
    receiver.answer = { body: { text: 'Integração assumiu' } };
    await customerSays(conn, phone, 'segunda');
    await eventually(async () => (await outgoing(first.ticketId)).some((m) => m.body === 'Integração assumiu'));
    expect(receiver.received).toHaveLength(1);
  });

  for (const [label, answer] of [
    ['a failing', { status: 500, body: { error: 'boom' } }],
    ['a slow', { delayMs: 1500, body: { text: 'tarde demais' } }],
    ['a malformed', { raw: '<html>oops</html>' }],
  ] as const) {
    it(`retries ${label} remote with backoff, logs each failure and hands the ticket to its queue, keeping the message`, async () => {
      const hook = await integration({ type: 'webhook' });
      const conn = await createConnection(t.db, companyId, { integrationId: hook.id });
      receiver.answer = answer;
      const phone = number();
      const { ticketId, messageId } = await customerSays(conn, phone, 'alguém aí?');
      const ticket = await eventually(async () => {
        const row = await ticketOf(ticketId);
        return row.integrationStoppedAt && row;
      }, 8000);
      expect(receiver.received).toHaveLength(2);
      expect(await logTypes(ticketId)).toEqual(['create', 'integrationFailed', 'integrationFailed', 'queue']);
      expect(ticket).toMatchObject({ status: 'pending', useIntegration: false, integrationId: null });
      expect((await t.db.select().from(messages).where(eq(messages.id, messageId)))[0]).toMatchObject({ body: 'alguém aí?', fromMe: false });
      expect(await outgoing(ticketId)).toEqual([]);
      // Handed over: the next message stays with the humans.
      await customerSays(conn, phone, 'e agora?');
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(2);
    });
  }

  it('retries through the pg-boss job when the process runs one', async () => {
    const boss = await startJobs(t.pool.options.connectionString!, t.app.log);
    try {
      t.app.ctx.boss = boss;
      await registerIntegrationJobs(boss, t.app.ctx);
      const hook = await integration({ type: 'webhook' });
      const conn = await createConnection(t.db, companyId, { integrationId: hook.id });
      receiver.queue.push({ status: 503 });
      receiver.answer = { body: { text: 'Voltei' } };
      const { ticketId } = await customerSays(conn, number(), 'teste');
      await eventually(async () => (await outgoing(ticketId)).some((m) => m.body === 'Voltei'), 10_000);
      expect(receiver.received).toHaveLength(2);
      expect(await logTypes(ticketId)).toEqual(['create', 'integrationFailed']);
      expect((await ticketOf(ticketId)).integrationStoppedAt).toBeNull();
    } finally {
      t.app.ctx.boss = undefined;
      await stopJobs(boss);
    }
  });
});

describe('Dialogflow at run time', () => {
  it('answers with the fulfilment messages of the session, and hands over on an end-of-conversation intent', async () => {
    const agent = await integration({ type: 'dialogflow', projectName: 'balcao-test', language: 'pt-BR', jsonContent: sealSecret(TEST_SECRETS, dialogflow.jsonContent), urlN8N: null });
    dialogflow.intents.set('horário', { displayName: 'Horário', replies: ['Abrimos às 9h.', 'Fechamos às 18h.'] });
    dialogflow.intents.set('falar com atendente', { displayName: 'Atendente', replies: ['Vou te passar para um atendente.'], endInteraction: true });
    const conn = await createConnection(t.db, companyId, { integrationId: agent.id });
    const phone = number();
    const { ticketId } = await customerSays(conn, phone, 'Horário');
    await eventually(async () => (await outgoing(ticketId)).length === 2);
    expect(dialogflow.calls.at(-1)).toMatchObject({ project: 'balcao-test', session: `ticket-${ticketId}`, text: 'Horário', languageCode: 'pt-BR' });
    await customerSays(conn, phone, 'falar com atendente');
    const ticket = await eventually(async () => {
      const row = await ticketOf(ticketId);
      return row.integrationStoppedAt && row;
    });
    expect(ticket.status).toBe('pending');
    expect((await outgoing(ticketId)).map((m) => m.body)).toEqual(['Abrimos às 9h.', 'Fechamos às 18h.', 'Vou te passar para um atendente.']);
    expect(await logTypes(ticketId)).toContain('queue');
  });
});

describe('Typebot at run time', () => {
  it('starts a chat, relays answers with the delay between messages, and handles unknown, restart, finish and expiry', async () => {
    const bot = await integration({
      type: 'typebot',
      urlN8N: typebot.url,
      typebotSlug: 'atendimento',
      typebotDelayMessage: 250,
      typebotExpires: 5,
      typebotKeywordFinish: 'sair',
      typebotKeywordRestart: '#reiniciar',
      typebotUnknownMessage: 'Opção inválida, tente de novo.',
      typebotRestartMessage: 'Vamos recomeçar!',
    });
    const conn = await createConnection(t.db, companyId, { integrationId: bot.id });
    const phone = number();
    const bodies = async (ticketId: number) => (await outgoing(ticketId)).map((m) => m.body || m.mediaType);
    const { ticketId } = await customerSays(conn, phone, 'oi');
    const greeting = await eventually(async () => {
      const rows = await outgoing(ticketId);
      return rows.length === 3 && rows;
    });
    expect(greeting.map((m) => [m.body, m.mediaType])).toEqual([
      ['Olá! Escolha:', 'chat'],
      ['', 'image'],
      ['1 - Vendas\n2 - Suporte', 'chat'],
    ]);
    expect(greeting[2]!.createdAt.getTime() - greeting[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(400);
    expect(typebot.calls.at(-1)).toEqual({ kind: 'start', target: 'atendimento', text: 'oi' });
    expect((await ticketOf(ticketId)).typebotSessionId).toBe('sess-1');

    await customerSays(conn, phone, 'talvez');
    await eventually(async () => (await bodies(ticketId)).includes('Opção inválida, tente de novo.'));
    await customerSays(conn, phone, 'Vendas');
    await eventually(async () => (await bodies(ticketId)).includes('Você escolheu Vendas'));
    expect(typebot.calls.at(-1)).toEqual({ kind: 'continue', target: 'sess-1', text: 'Vendas' });

    await customerSays(conn, phone, '#reiniciar');
    await eventually(async () => (await bodies(ticketId)).includes('Vamos recomeçar!'));
    expect((await ticketOf(ticketId)).typebotSessionId).toBeNull();
    await customerSays(conn, phone, 'de novo');
    await eventually(async () => (await ticketOf(ticketId)).typebotSessionId === 'sess-2');

    // An idle session past typebotExpires minutes starts over.
    await t.db.update(tickets).set({ typebotSessionAt: new Date(Date.now() - 6 * 60_000) }).where(eq(tickets.id, ticketId));
    await customerSays(conn, phone, 'voltei');
    await eventually(async () => (await ticketOf(ticketId)).typebotSessionId === 'sess-3');
    expect(typebot.calls.at(-1)).toMatchObject({ kind: 'start', text: 'voltei' });

    const before = typebot.calls.length;
    await customerSays(conn, phone, 'SAIR');
    const ended = await eventually(async () => {
      const row = await ticketOf(ticketId);
      return row.integrationStoppedAt && row;
    });
    expect(ended).toMatchObject({ typebotSessionId: null, status: 'pending' });
    expect(typebot.calls.length).toBe(before);
  });
});

describe("a queue's own Integration", () => {
  /** A queue with `integrationId` and a bot option that must not run while the integration holds the ticket. */
  async function queueWith(integrationId: number | null, name = 'Vendas', owner = companyId) {
    const queue = await createQueue(t.db, owner, name);
    await t.db.update(queues).set({ integrationId, greetingMessage: `Bem-vindo a ${name}` }).where(eq(queues.id, queue.id));
    await t.db.insert(chatbots).values({ companyId: owner, queueId: queue.id, name: 'Opção da fila', greetingMessage: 'Menu da fila', queueType: 'text', position: 0 });
    await t.db.insert(chatbots).values({ companyId: owner, queueId: queue.id, name: 'Outra opção', greetingMessage: 'Outra', queueType: 'text', position: 1 });
    return queue;
  }

  it('takes the ticket when the customer picks the queue by number: the choosing message goes to it, its reply to the customer, the bot stays out', async () => {
    const hook = await integration({ type: 'webhook' });
    const [first, sales] = [await createQueue(t.db, companyId, 'A Suporte'), await queueWith(hook.id, 'B Vendas')];
    const conn = await createConnection(t.db, companyId, { greetingMessage: 'Olá! Escolha:' }, [first.id, sales.id]);
    const phone = number();
    const { ticketId } = await customerSays(conn, phone, 'oi');
    await eventually(async () => (await outgoing(ticketId)).length === 1);
    expect(receiver.received).toHaveLength(0);

    receiver.answer = { body: { text: 'Fluxo de vendas aqui' } };
    const choice = await customerSays(conn, phone, '2');
    await eventually(async () => (await outgoing(ticketId)).some((m) => m.body === 'Fluxo de vendas aqui'));
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ ticket: { id: ticketId, queueId: sales.id }, message: { id: choice.messageId, body: '2' } });
    expect(await ticketOf(ticketId)).toMatchObject({ queueId: sales.id, useIntegration: true, integrationId: hook.id, status: 'pending', userId: null });
    expect(await logTypes(ticketId)).toEqual(['create', 'queue', 'chatBot']);

    // The next message goes to the integration too; the queue's options are never listed.
    receiver.answer = { body: { text: 'Anotado' } };
    await customerSays(conn, phone, '1');
    await eventually(async () => (await outgoing(ticketId)).some((m) => m.body === 'Anotado'));
    expect(receiver.received.map((r) => (r as { message: { body: string } }).message.body)).toEqual(['2', '1']);
    expect((await outgoing(ticketId)).map((m) => m.body).slice(1)).toEqual(['Bem-vindo a B Vendas', 'Fluxo de vendas aqui', 'Anotado']);
  });

  it("hands the connection's only queue to its Typebot from the customer's first message", async () => {
    const bot = await integration({ type: 'typebot', urlN8N: typebot.url, typebotSlug: 'fila-unica', typebotDelayMessage: 0 });
    const only = await queueWith(bot.id);
    await t.db.update(queues).set({ greetingMessage: '' }).where(eq(queues.id, only.id));
    const conn = await createConnection(t.db, companyId, { greetingMessage: '' }, [only.id]);
    const { ticketId } = await customerSays(conn, number(), 'oi, quero comprar');
    await eventually(async () => (await outgoing(ticketId)).some((m) => m.body === '1 - Vendas\n2 - Suporte'));
    expect(typebot.calls.at(-1)).toEqual({ kind: 'start', target: 'fila-unica', text: 'oi, quero comprar' });
    expect(await ticketOf(ticketId)).toMatchObject({ queueId: only.id, useIntegration: true, integrationId: bot.id });
    expect((await outgoing(ticketId)).map((m) => m.body)).not.toContain('Menu da fila');
  });

  it('is ignored without the plan flag useIntegrations: the queue runs its bot', async () => {
    const [plan] = await t.db.insert(plans).values({ name: `Sem integrações ${++seq}`, users: 5, connections: 5, queues: 5, useIntegrations: false }).returning();
    const other = (await createCompanyWithAdmin(t.db, { planId: plan!.id })).company.id;
    const [hook] = await t.db.insert(queueIntegrations).values({ companyId: other, type: 'webhook', name: 'Fluxo', urlN8N: receiver.hookUrl }).returning();
    const only = await queueWith(hook!.id, 'Vendas', other);
    const conn = await createConnection(t.db, other, { greetingMessage: '' }, [only.id]);
    const { ticketId } = await customerSays(conn, number(), 'oi');
    await eventually(async () => (await outgoing(ticketId)).some((m) => m.body.includes('*1* - Opção da fila')));
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toHaveLength(0);
    expect(await ticketOf(ticketId)).toMatchObject({ useIntegration: false, integrationId: null });
  });

  it('falls back to the queue when the remote fails: logged, the message kept, the bot not restarted', async () => {
    const hook = await integration({ type: 'webhook' });
    const only = await queueWith(hook.id);
    const conn = await createConnection(t.db, companyId, { greetingMessage: '' }, [only.id]);
    receiver.answer = { status: 500, body: { error: 'boom' } };
    const phone = number();
    const { ticketId } = await customerSays(conn, phone, 'socorro');
    const ticket = await eventually(async () => {
      const row = await ticketOf(ticketId);
      return row.integrationStoppedAt && row;
    }, 8000);
    expect(ticket).toMatchObject({ status: 'pending', queueId: only.id, userId: null, useIntegration: false, integrationId: null });
    expect(receiver.received).toHaveLength(2);
    expect(await logTypes(ticketId)).toEqual(['create', 'chatBot', 'integrationFailed', 'integrationFailed', 'queue']);
    await customerSays(conn, phone, 'e agora?');
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(2);
    expect((await outgoing(ticketId)).map((m) => m.body)).toEqual(['Bem-vindo a Vendas']);
  });

  it('takes a ticket transferred into the queue without a user (not one transferred to a user)', async () => {
    const { admin, email, password } = await createCompanyWithAdmin(t.db);
    const owner = admin.companyId;
    const [hook] = await t.db.insert(queueIntegrations).values({ companyId: owner, type: 'webhook', name: 'Fluxo', urlN8N: receiver.hookUrl }).returning();
    const start = await createQueue(t.db, owner, 'Entrada');
    const sales = await queueWith(hook!.id, 'Vendas', owner);
    const conn = await createConnection(t.db, owner, { greetingMessage: '' }, [start.id]);
    const phone = number();
    const { ticketId } = await customerSays(conn, phone, 'oi');
    const { token } = await login(t.app, email, password);
    const transfer = (body: object) => t.app.inject({ method: 'PUT', url: `/tickets/${ticketId}`, headers: bearer(token), payload: { isTransfered: true, status: 'pending', ...body } });

    expect((await transfer({ queueId: sales.id, userId: admin.id, status: 'open' })).statusCode).toBe(200);
    expect(await ticketOf(ticketId)).toMatchObject({ useIntegration: false, userId: admin.id });
    expect((await transfer({ queueId: sales.id, userId: null })).statusCode).toBe(200);
    expect(await ticketOf(ticketId)).toMatchObject({ queueId: sales.id, userId: null, status: 'pending', useIntegration: true, integrationId: hook!.id });
    expect((await logTypes(ticketId)).slice(-2)).toEqual(['transfered', 'chatBot']);

    receiver.answer = { body: { text: 'Integração da fila' } };
    await customerSays(conn, phone, 'quero comprar');
    await eventually(async () => (await outgoing(ticketId)).some((m) => m.body === 'Integração da fila'));
    expect(receiver.received).toHaveLength(1);
  });
});
