import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatbots, companies, contacts, fileListOptions, fileLists, messages, queueIntegrations, queues, tickets } from '../../../db/schema/index.js';
import { createCompanyWithAdmin, createTestApp, sleep, type TestApp } from '../../../../test/helpers.js';
import { createConnection, eventually } from '../../../../test/connections.js';
import { logsOf, setCompanySettings } from '../../../../test/tickets.js';
import { FakeGraph } from '../../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../../test/fakes/meta-webhook.js';
import { customerText, outgoingOf } from '../../../../test/customer.js';
import type { Connection } from '../../../channels/adapter.js';

let t: TestApp;
let graph: FakeGraph;
let companyId: number;
let adminId: number;
let conn: Connection;
let sales: number;
let support: number;
let integrationId: number;
let number = 5_590_000_000;

const customerSays = async (from: string, body: string, connection = conn) => (await customerText(t.app.ctx, connection, from, body)).ticketId;

const outgoing = (ticketId: number) => outgoingOf(t.db, ticketId);
const ticketOf = async (id: number) => (await t.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;

/** Waits for the bot's `count`-th answer on the ticket and answers it. */
async function reply(ticketId: number, count: number) {
  const rows = await eventually(async () => {
    const r = await outgoing(ticketId);
    return r.length >= count && r;
  });
  return rows[count - 1]!;
}
/** No new answer comes (the behaviours run after the message is stored). */
async function silence(ticketId: number, count: number) {
  await sleep(600);
  expect(await outgoing(ticketId)).toHaveLength(count);
}

async function option(queueId: number, fields: Partial<typeof chatbots.$inferInsert> & { name: string }, parentId: number | null = null, position = 0) {
  const [row] = await t.db.insert(chatbots).values({ companyId, queueId, parentId, position, ...fields }).returning();
  return row!.id;
}

const customer = () => String((number += 1));
const bodies = async (ticketId: number) => (await outgoing(ticketId)).map((m) => m.body);
const incoming = (ticketId: number) => t.db.select().from(messages).where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, false)));

const ALL_WEEK = (['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const).map((weekdayEn) => ({
  weekday: weekdayEn,
  weekdayEn,
  startTimeA: '00:00',
  endTimeA: '23:59',
  startTimeB: '',
  endTimeB: '',
}));
const CLOSED_WEEK = ALL_WEEK.map((d) => ({ ...d, startTimeA: '', endTimeA: '' }));

beforeAll(async () => {
  graph = await FakeGraph.start();
  // The integration option hands over to an unreachable receiver: its retries must end before the app closes
  // (closing drains background tasks, and the default backoff outlasts Fastify's plugin timeout).
  t = await createTestApp({ ...metaEnv(graph.url), INTEGRATION_RETRY_BASE_MS: '50', INTEGRATION_TIMEOUT_MS: '1000' });
  const created = await createCompanyWithAdmin(t.db);
  companyId = created.company.id;
  adminId = created.admin.id;
  const [a, b] = await t.db
    .insert(queues)
    .values([
      { companyId, name: 'Vendas', color: '#00AA00', orderQueue: 1, greetingMessage: 'Bem-vindo a Vendas' },
      { companyId, name: 'Suporte', color: '#0000AA', orderQueue: 2, greetingMessage: 'Suporte aqui' },
    ])
    .returning();
  sales = a!.id;
  support = b!.id;
  // Vendas: Planos › Básico › Anual | Mensal (three levels), and a queue option to Suporte.
  const planos = await option(sales, { name: 'Planos', greetingMessage: 'Qual plano?' });
  const basico = await option(sales, { name: 'Básico', greetingMessage: 'Básico: qual período?' }, planos, 0);
  await option(sales, { name: 'Premium', greetingMessage: 'Premium é ótimo' }, planos, 1);
  await option(sales, { name: 'Anual', greetingMessage: 'Anual fechado, obrigado!', closeTicket: true }, basico, 0);
  await option(sales, { name: 'Mensal', greetingMessage: 'Mensal fechado, obrigado!', closeTicket: true }, basico, 1);
  await option(sales, { name: 'Ir ao suporte', greetingMessage: 'Levando você ao suporte', queueType: 'queue', optQueueId: support }, null, 1);
  // Suporte: attendent, file, integration.
  const [integration] = await t.db.insert(queueIntegrations).values({ companyId, type: 'webhook', name: 'Robô', urlN8N: 'http://127.0.0.1:9/hook' }).returning();
  integrationId = integration!.id;
  const [list] = await t.db.insert(fileLists).values({ companyId, name: 'Manuais', message: 'Seguem os manuais' }).returning();
  const saved = await t.app.ctx.storage.save(companyId, Buffer.from('%PDF-1.4 manual'), 'application/pdf', 'manual.pdf');
  await t.db.insert(fileListOptions).values({ fileId: list!.id, name: 'Manual do produto', path: saved.fileName, mediaType: 'application/pdf' });
  await option(support, { name: 'Falar com a Ana', greetingMessage: 'A Ana já vem', queueType: 'attendent', optUserId: adminId }, null, 0);
  await option(support, { name: 'Receber manuais', greetingMessage: 'Um momento', queueType: 'file', optFileId: list!.id }, null, 1);
  await option(support, { name: 'Robô de pedidos', queueType: 'integration', optIntegrationId: integrationId }, null, 2);
  conn = await createConnection(t.db, companyId, { greetingMessage: 'Olá! Escolha um setor:', maxUseBotQueues: 2 }, [sales, support]);
});

afterAll(async () => {
  await t.close();
  await graph.close();
});

describe('the queue chatbot', () => {
  it('walks three levels by number, logging the queue and each option, and closes on a closeTicket option', async () => {
    const from = customer();
    const id = await customerSays(from, 'oi');
    expect((await reply(id, 1)).body).toBe('Olá! Escolha um setor:\n\n*1* - Vendas\n*2* - Suporte');
    await customerSays(from, '1');
    expect((await reply(id, 2)).body).toBe('Bem-vindo a Vendas\n\n*1* - Planos\n*2* - Ir ao suporte\n*0* - Voltar\n*#* - Menu inicial');
    expect(await ticketOf(id)).toMatchObject({ queueId: sales, status: 'pending', userId: null });
    await customerSays(from, '1');
    expect((await reply(id, 3)).body).toContain('Qual plano?\n\n*1* - Básico\n*2* - Premium');
    await customerSays(from, '1');
    expect((await reply(id, 4)).body).toContain('Básico: qual período?\n\n*1* - Anual');
    await customerSays(from, '1');
    expect((await reply(id, 5)).body).toBe('Anual fechado, obrigado!');
    await eventually(async () => (await ticketOf(id)).status === 'closed');
    expect((await logsOf(t.db, id)).map((l) => [l.type, l.queueId])).toEqual([
      ['create', null],
      ['queue', sales],
      ['chatBot', sales],
      ['chatBot', sales],
      ['chatBot', sales],
      ['closed', sales],
    ]);
  });

  it('understands the option text (any case, no accents), goes back with 0 and to the start with #', async () => {
    const from = customer();
    const id = await customerSays(from, 'bom dia');
    await reply(id, 1);
    await customerSays(from, 'VENDAS');
    await reply(id, 2);
    await customerSays(from, 'planos');
    expect((await reply(id, 3)).body).toContain('Qual plano?');
    await customerSays(from, 'basico');
    expect((await reply(id, 4)).body).toContain('*1* - Anual');
    await customerSays(from, '0');
    expect((await reply(id, 5)).body).toContain('Qual plano?\n\n*1* - Básico');
    await customerSays(from, '#');
    expect((await reply(id, 6)).body).toBe('Olá! Escolha um setor:\n\n*1* - Vendas\n*2* - Suporte');
    expect((await ticketOf(id)).queueId).toBeNull();
    await customerSays(from, 'Suporte');
    expect((await reply(id, 7)).body).toContain('Suporte aqui\n\n*1* - Falar com a Ana');
    await customerSays(from, 'falar com a ana');
    expect((await reply(id, 8)).body).toBe('A Ana já vem');
    await eventually(async () => (await ticketOf(id)).status === 'open');
    expect(await ticketOf(id)).toMatchObject({ queueId: support, userId: adminId });
    expect((await logsOf(t.db, id)).at(-1)).toMatchObject({ type: 'chatBot', userId: adminId, queueId: support });
  });

  it('asks again after a wrong answer and leaves the ticket to the queue after maxUseBotQueues of them', async () => {
    const from = customer();
    const id = await customerSays(from, 'oi');
    await reply(id, 1);
    await customerSays(from, '2');
    await reply(id, 2);
    await customerSays(from, 'quero um pedido');
    expect((await reply(id, 3)).body).toContain('Suporte aqui\n\n*1* - Falar com a Ana');
    await customerSays(from, '9');
    await eventually(async () => (await ticketOf(id)).botFinishedAt !== null);
    await customerSays(from, '1');
    await silence(id, 3);
    expect(await ticketOf(id)).toMatchObject({ queueId: support, status: 'pending', userId: null });
  });

  it('stops after timeUseBotQueues minutes in the bot', async () => {
    const timed = await createConnection(t.db, companyId, { greetingMessage: 'Setor?', timeUseBotQueues: 5 }, [sales, support]);
    const from = customer();
    const id = await customerSays(from, 'oi', timed);
    await reply(id, 1);
    await eventually(async () => (await ticketOf(id)).botStartedAt);
    await t.db.update(tickets).set({ botStartedAt: new Date(Date.now() - 6 * 60_000) }).where(eq(tickets.id, id));
    await customerSays(from, '1', timed);
    await silence(id, 1);
    expect(await ticketOf(id)).toMatchObject({ queueId: null, status: 'pending' });
    expect((await ticketOf(id)).botFinishedAt).not.toBeNull();
  });

  it('moves the ticket on a queue option, sends a file list, and hands over to an integration', async () => {
    const from = customer();
    const id = await customerSays(from, 'oi');
    await reply(id, 1);
    await customerSays(from, '1');
    await reply(id, 2);
    await customerSays(from, 'Ir ao suporte');
    expect((await reply(id, 3)).body).toBe('Levando você ao suporte');
    expect((await reply(id, 4)).body).toContain('Suporte aqui');
    expect((await logsOf(t.db, id)).slice(-2).map((l) => [l.type, l.queueId])).toEqual([
      ['chatBot', sales],
      ['queue', support],
    ]);
    await customerSays(from, '2');
    expect((await reply(id, 5)).body).toBe('Um momento');
    expect((await reply(id, 6)).body).toBe('Seguem os manuais');
    expect(await reply(id, 7)).toMatchObject({ body: 'Manual do produto', mediaType: 'application' });

    const other = customer();
    const second = await customerSays(other, 'oi');
    await reply(second, 1);
    await customerSays(other, '2');
    await reply(second, 2);
    await customerSays(other, '3');
    await eventually(async () => (await ticketOf(second)).useIntegration);
    expect(await ticketOf(second)).toMatchObject({ integrationId, useIntegration: true, status: 'pending' });
    await customerSays(other, '1');
    await silence(second, 2);
  });

  it("leaves alone a contact with disableBot, and answers out of the queue's hours with its message", async () => {
    const from = customer();
    const id = await customerSays(from, 'oi');
    await reply(id, 1);
    await t.db.update(contacts).set({ disableBot: true }).where(eq(contacts.id, (await ticketOf(id)).contactId));
    await customerSays(from, '1');
    await silence(id, 1);
    expect((await ticketOf(id)).queueId).toBeNull();

    const closed = [{ weekday: 'x', weekdayEn: 'monday' as const, startTimeA: '00:00', endTimeA: '00:00', startTimeB: '', endTimeB: '' }];
    const [night] = await t.db.insert(queues).values({ companyId, name: 'Noturno', color: '#AA0000', outOfHoursMessage: 'Fechados agora', schedules: closed }).returning();
    await setCompanySettings(t.db, companyId, { scheduleType: 'queue' });
    const only = await createConnection(t.db, companyId, { greetingMessage: '' }, [night!.id]);
    const late = customer();
    const lateId = await customerSays(late, 'alguém aí?', only);
    expect((await reply(lateId, 1)).body).toBe('Fechados agora');
    expect(await t.db.select().from(messages).where(and(eq(messages.ticketId, lateId), eq(messages.fromMe, false)))).toHaveLength(1);
    await setCompanySettings(t.db, companyId, { scheduleType: 'disabled' });
  });

  it('tells a customer left waiting in a queue their place in it (sendQueuePosition)', async () => {
    const [waiting] = await t.db.insert(queues).values({ companyId, name: 'Espera', color: '#555555', greetingMessage: 'Fila de espera' }).returning();
    const only = await createConnection(t.db, companyId, { greetingMessage: '' }, [waiting!.id]);
    await setCompanySettings(t.db, companyId, { sendQueuePosition: 'enabled', sendQueuePositionMessage: 'Você é o {{position}}º da fila' });
    const first = await customerSays(customer(), 'oi', only);
    expect((await reply(first, 1)).body).toBe('Fila de espera');
    expect((await reply(first, 2)).body).toBe('Você é o 1º da fila');
    const second = await customerSays(customer(), 'olá', only);
    expect((await reply(second, 2)).body).toBe('Você é o 2º da fila');
    await setCompanySettings(t.db, companyId, { sendQueuePositionMessage: 'Sua posição:' });
    const third = await customerSays(customer(), 'e aí', only);
    expect((await reply(third, 2)).body).toBe('Sua posição: *3*');
    await setCompanySettings(t.db, companyId, { sendQueuePosition: 'disabled' });
    const fourth = await customerSays(customer(), 'bom dia', only);
    await reply(fourth, 1);
    await silence(fourth, 1);
  });
});

describe('LGPD consent', () => {
  const question = 'Usamos seus dados para atender você.\n\nhttps://exemplo.com/privacidade\n\n*1* - Aceito\n*2* - Não aceito';
  const menu = 'Olá! Escolha um setor:\n\n*1* - Vendas\n*2* - Suporte';

  it('holds a new ticket in lgpd until the customer accepts, then the bot starts; the contact is not asked again', async () => {
    await setCompanySettings(t.db, companyId, { enableLGPD: 'enabled', lgpdConsent: 'enabled', lgpdMessage: 'Usamos seus dados para atender você.', lgpdLink: 'https://exemplo.com/privacidade' });
    const from = customer();
    const id = await customerSays(from, 'oi');
    expect((await reply(id, 1)).body).toBe(question);
    expect((await ticketOf(id)).status).toBe('lgpd');
    await customerSays(from, 'talvez');
    expect((await reply(id, 2)).body).toBe(question);
    await customerSays(from, '1');
    expect((await reply(id, 3)).body).toBe(menu);
    expect((await ticketOf(id)).status).toBe('pending');
    const [contact] = await t.db.select().from(contacts).where(eq(contacts.id, (await ticketOf(id)).contactId));
    expect(contact!.lgpdAcceptedAt).not.toBeNull();
    await customerSays(from, '1');
    expect((await reply(id, 4)).body).toContain('Bem-vindo a Vendas');
  });

  it('closes the ticket when the customer declines', async () => {
    const from = customer();
    const id = await customerSays(from, 'oi');
    expect((await reply(id, 1)).body).toBe(question);
    await customerSays(from, '2');
    await eventually(async () => (await ticketOf(id)).status === 'closed');
    await silence(id, 1);
  });

  it('only informs, and goes on with the bot, without lgpdConsent; nothing when LGPD is off', async () => {
    await setCompanySettings(t.db, companyId, { lgpdConsent: 'disabled' });
    const id = await customerSays(customer(), 'oi');
    expect((await reply(id, 1)).body).toBe('Usamos seus dados para atender você.\n\nhttps://exemplo.com/privacidade');
    expect((await reply(id, 2)).body).toBe(menu);
    await setCompanySettings(t.db, companyId, { enableLGPD: 'disabled' });
    const off = await customerSays(customer(), 'oi');
    expect((await reply(off, 1)).body).toBe(menu);
    await silence(off, 1);
  });
});


describe('a level with a single option', () => {
  it('is not asked: at the top of a queue and one level down the only option is chosen; no back keys lead back to the same menu', async () => {
    const [queue] = await t.db.insert(queues).values({ companyId, name: 'Única', color: '#123456', greetingMessage: 'Fila única' }).returning();
    const planos = await option(queue!.id, { name: 'Planos', greetingMessage: 'Temos planos' });
    const basico = await option(queue!.id, { name: 'Básico', greetingMessage: 'Plano básico:' }, planos);
    await option(queue!.id, { name: 'Mensal', greetingMessage: 'Mensal, ótimo' }, basico, 0);
    await option(queue!.id, { name: 'Anual', greetingMessage: 'Anual, ótimo' }, basico, 1);
    const only = await createConnection(t.db, companyId, { greetingMessage: '' }, [queue!.id]);
    // Nothing above offers a choice: the menu shows no back keys ('0' would only walk down to it again).
    const menu = 'Plano básico:\n\n*1* - Mensal\n*2* - Anual';
    const from = customer();
    const id = await customerSays(from, 'oi', only);
    expect((await reply(id, 3)).body).toBe(menu);
    expect(await bodies(id)).toEqual(['Fila única', 'Temos planos', menu]);
    expect((await ticketOf(id)).chatbotId).toBe(basico);
    await customerSays(from, '0', only);
    expect((await reply(id, 6)).body).toBe(menu);
    expect((await bodies(id)).slice(3)).toEqual(['Fila única', 'Temos planos', menu]);
    await customerSays(from, 'anual', only);
    expect((await reply(id, 7)).body).toBe('Anual, ótimo');
    await eventually(async () => (await ticketOf(id)).botFinishedAt !== null);
    expect(await ticketOf(id)).toMatchObject({ queueId: queue!.id, status: 'pending', userId: null });
    expect((await logsOf(t.db, id)).filter((l) => l.type === 'chatBot')).toHaveLength(5);
  });

  it("runs the only option's target at once: an attendent two levels down, a queue option that leads back round is asked", async () => {
    const [direto] = await t.db.insert(queues).values({ companyId, name: 'Direto', color: '#654321', greetingMessage: 'Direto aqui' }).returning();
    const humano = await option(direto!.id, { name: 'Suporte humano', greetingMessage: 'Encaminhando' });
    await option(direto!.id, { name: 'Falar com a Ana', greetingMessage: 'A Ana atende você', queueType: 'attendent', optUserId: adminId }, humano);
    const two = await createConnection(t.db, companyId, { greetingMessage: 'Setor?' }, [sales, direto!.id]);
    const from = customer();
    const id = await customerSays(from, 'oi', two);
    await reply(id, 1);
    await customerSays(from, '2', two);
    expect((await reply(id, 4)).body).toBe('A Ana atende você');
    expect((await bodies(id)).slice(1)).toEqual(['Direto aqui', 'Encaminhando', 'A Ana atende você']);
    await eventually(async () => (await ticketOf(id)).status === 'open');
    expect(await ticketOf(id)).toMatchObject({ queueId: direto!.id, userId: adminId });
    expect((await logsOf(t.db, id)).slice(-3).map((l) => [l.type, l.userId])).toEqual([
      ['queue', null],
      ['chatBot', null],
      ['chatBot', adminId],
    ]);

    // Ping and Pong each hold a single option leading to the other: each is chosen once, then the customer is asked.
    const [ping, pong] = await t.db
      .insert(queues)
      .values([
        { companyId, name: 'Ping', color: '#111111', greetingMessage: 'Ping' },
        { companyId, name: 'Pong', color: '#222222', greetingMessage: 'Pong' },
      ])
      .returning();
    await option(ping!.id, { name: 'Para o Pong', queueType: 'queue', optQueueId: pong!.id });
    await option(pong!.id, { name: 'Para o Ping', queueType: 'queue', optQueueId: ping!.id });
    const round = await createConnection(t.db, companyId, { greetingMessage: '' }, [ping!.id]);
    const loop = await customerSays(customer(), 'oi', round);
    expect((await reply(loop, 3)).body).toBe('Ping\n\n*1* - Para o Pong');
    await silence(loop, 3);
    expect(await bodies(loop)).toEqual(['Ping', 'Pong', 'Ping\n\n*1* - Para o Pong']);
  });
});

describe('out of hours before the bot', () => {
  const closedMessage = 'Fechados agora, voltamos amanhã';

  /** A new customer of a bot connection: the out-of-hours answer once, nothing else, both messages stored; or the menu. */
  async function expectClosed(connection: Connection) {
    const from = customer();
    const id = await customerSays(from, 'oi', connection);
    expect((await reply(id, 1)).body).toBe(closedMessage);
    await customerSays(from, '1', connection);
    await silence(id, 1);
    expect(await incoming(id)).toHaveLength(2);
    expect(await ticketOf(id)).toMatchObject({ queueId: null, status: 'pending', botStartedAt: null });
  }
  async function expectOpen(connection: Connection) {
    const id = await customerSays(customer(), 'oi', connection);
    expect((await reply(id, 1)).body).toBe('Olá! Escolha um setor:\n\n*1* - Vendas\n*2* - Suporte');
  }
  const botConnection = (schedules = ALL_WEEK) =>
    createConnection(t.db, companyId, { greetingMessage: 'Olá! Escolha um setor:', outOfHoursMessage: closedMessage, schedules }, [sales, support]);

  it("with scheduleType company, the company's hours decide and the connection's outOfHoursMessage answers", async () => {
    await setCompanySettings(t.db, companyId, { scheduleType: 'company' });
    try {
      // The connection's own hours say open: with scheduleType company they do not count.
      const connection = await botConnection(ALL_WEEK);
      await t.db.update(companies).set({ schedules: CLOSED_WEEK }).where(eq(companies.id, companyId));
      await expectClosed(connection);
      await t.db.update(companies).set({ schedules: ALL_WEEK }).where(eq(companies.id, companyId));
      await expectOpen(connection);
    } finally {
      await setCompanySettings(t.db, companyId, { scheduleType: 'disabled' });
    }
  });

  it("with scheduleType connection, the connection's hours decide", async () => {
    await setCompanySettings(t.db, companyId, { scheduleType: 'connection' });
    try {
      await t.db.update(companies).set({ schedules: ALL_WEEK }).where(eq(companies.id, companyId));
      await expectClosed(await botConnection(CLOSED_WEEK));
      await t.db.update(companies).set({ schedules: CLOSED_WEEK }).where(eq(companies.id, companyId));
      await expectOpen(await botConnection(ALL_WEEK));
    } finally {
      await setCompanySettings(t.db, companyId, { scheduleType: 'disabled' });
    }
  });

  it('with scheduleType disabled, neither hours close', async () => {
    await t.db.update(companies).set({ schedules: CLOSED_WEEK }).where(eq(companies.id, companyId));
    await expectOpen(await botConnection(CLOSED_WEEK));
  });
});

describe("the bot's words in the company's botLanguage", () => {
  it("an en company gets 'Back', 'Main menu', 'I accept' and an English {{ms}}", async () => {
    await setCompanySettings(t.db, companyId, { botLanguage: 'en', enableLGPD: 'enabled', lgpdConsent: 'enabled', lgpdMessage: 'We use your data.', lgpdLink: '' });
    try {
      const hello = await createConnection(t.db, companyId, { greetingMessage: '{{ms}}! Pick one:' }, [sales, support]);
      const from = customer();
      const id = await customerSays(from, 'hi', hello);
      expect((await reply(id, 1)).body).toBe('We use your data.\n\n*1* - I accept\n*2* - I do not accept');
      await customerSays(from, '1', hello);
      expect((await reply(id, 2)).body).toMatch(/^Good (morning|afternoon|evening)! Pick one:\n\n\*1\* - Vendas/);
      await customerSays(from, '1', hello);
      expect((await reply(id, 3)).body).toBe('Bem-vindo a Vendas\n\n*1* - Planos\n*2* - Ir ao suporte\n*0* - Back\n*#* - Main menu');
    } finally {
      await setCompanySettings(t.db, companyId, { botLanguage: 'pt-BR', enableLGPD: 'disabled', lgpdConsent: 'disabled', lgpdMessage: '' });
    }
  });
});
