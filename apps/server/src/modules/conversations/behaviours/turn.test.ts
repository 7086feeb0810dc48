import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatbots, messages, queues, tickets } from '../../../db/schema/index.js';
import { createCompanyWithAdmin, createTestApp, createTestDatabase, sleep, type TestApp } from '../../../../test/helpers.js';
import { createConnection, eventually } from '../../../../test/connections.js';
import { FakeGraph } from '../../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../../test/fakes/meta-webhook.js';
import { customerText } from '../../../../test/customer.js';
import type { Connection } from '../../../channels/adapter.js';

/**
 * Two answers of one customer processed at once (two webhook deliveries on one node, or one on
 * each of two nodes) walk the bot's tree one after the other, in the order they were stored.
 */
let nodeA: TestApp;
let nodeB: TestApp;
let graph: FakeGraph;
let companyId: number;
let conn: Connection;
let sales: number;
let support: number;
let defeito: number;
let number = 5_592_000_000;

const customerSays = (node: TestApp, from: string, body: string) => customerText(node.app.ctx, conn, from, body);

const outgoing = async (ticketId: number) =>
  (
    await nodeA.db
      .select({ body: messages.body })
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, true)))
      .orderBy(asc(messages.id))
  ).map((m) => m.body);
const ticketOf = async (id: number) => (await nodeA.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;

const MENU = 'Olá! Escolha um setor:\n\n*1* - Vendas\n*2* - Suporte';
const KEYS = '*0* - Voltar\n*#* - Menu inicial';
const SALES_MENU = `Vendas:\n\n*1* - Planos\n*2* - Preços\n${KEYS}`;
const SUPPORT_MENU = `Suporte:\n\n*1* - Defeito\n*2* - Dúvida\n${KEYS}`;

beforeAll(async () => {
  graph = await FakeGraph.start();
  const database = await createTestDatabase();
  nodeA = await createTestApp(metaEnv(graph.url), {}, database);
  nodeB = await createTestApp(metaEnv(graph.url), {}, database);
  companyId = (await createCompanyWithAdmin(nodeA.db)).company.id;
  const [a, b] = await nodeA.db
    .insert(queues)
    .values([
      { companyId, name: 'Vendas', color: '#00AA00', orderQueue: 1, greetingMessage: 'Vendas:' },
      { companyId, name: 'Suporte', color: '#0000AA', orderQueue: 2, greetingMessage: 'Suporte:' },
    ])
    .returning();
  sales = a!.id;
  support = b!.id;
  const option = async (queueId: number, name: string, greetingMessage: string, position: number, parentId: number | null = null) =>
    (await nodeA.db.insert(chatbots).values({ companyId, queueId, parentId, position, name, greetingMessage }).returning())[0]!.id;
  const planos = await option(sales, 'Planos', 'Qual plano?', 0);
  // Two sub-options each: a level with a single option would be chosen without asking (docs/chatbots.md).
  await option(sales, 'Básico', 'Básico, ótimo', 0, planos);
  await option(sales, 'Premium', 'Premium, excelente', 1, planos);
  await option(sales, 'Preços', 'Tabela de preços', 1);
  defeito = await option(support, 'Defeito', 'Descreva o defeito', 0);
  await option(support, 'Tela', 'Tela quebrada', 0, defeito);
  await option(support, 'Bateria', 'Bateria fraca', 1, defeito);
  await option(support, 'Dúvida', 'Pergunte', 1);
  conn = await createConnection(nodeA.db, companyId, { greetingMessage: 'Olá! Escolha um setor:', maxUseBotQueues: 5 }, [sales, support]);
});

afterAll(async () => {
  await nodeA.close();
  await nodeB.close();
  await graph.close();
});

describe('one customer message at a time through the bot', () => {
  it('two answers at once advance the tree once each, in the order they were stored, with no duplicate menu', async () => {
    for (let round = 0; round < 6; round++) {
      const from = String((number += 1));
      const first = await customerSays(nodeA, from, 'oi');
      await eventually(async () => (await outgoing(first.ticketId)).length === 1);

      // Every other round the second answer arrives on another node.
      const other = round % 2 === 0 ? nodeA : nodeB;
      const [one, two] = await Promise.all([customerSays(nodeA, from, '1'), customerSays(other, from, '2')]);
      expect(two.ticketId).toBe(one.ticketId);
      const oneFirst = one.messageId < two.messageId;
      const expected = oneFirst
        ? // '1' picks Vendas, then '2' picks its Preços (a leaf: the bot is done).
          [MENU, SALES_MENU, 'Tabela de preços']
        : // '2' picks Suporte, then '1' picks its Defeito, which lists its sub-option.
          [MENU, SUPPORT_MENU, `Descreva o defeito\n\n*1* - Tela\n*2* - Bateria\n${KEYS}`];
      await eventually(async () => (await outgoing(first.ticketId)).length >= 3);
      await sleep(400);
      expect(await outgoing(first.ticketId), `round ${round}`).toEqual(expected);
      expect(await ticketOf(first.ticketId)).toMatchObject(oneFirst ? { queueId: sales, chatbotId: null } : { queueId: support, chatbotId: defeito });
    }
  });

  it('a burst of answers is taken one by one in order (each sees where the previous one left the ticket)', async () => {
    const from = String((number += 1));
    const first = await customerSays(nodeA, from, 'oi');
    await eventually(async () => (await outgoing(first.ticketId)).length === 1);
    // Stored one after the other, faster than the bot answers (each message's behaviours start in the
    // background as soon as it is stored): Vendas › Planos › back (0) › back to the start (#).
    for (const [i, body] of ['1', '1', '0', '#'].entries()) await customerSays(i % 2 ? nodeB : nodeA, from, body);
    await eventually(async () => (await outgoing(first.ticketId)).length >= 5);
    await sleep(400);
    expect(await outgoing(first.ticketId)).toEqual([MENU, SALES_MENU, `Qual plano?\n\n*1* - Básico\n*2* - Premium\n${KEYS}`, SALES_MENU, MENU]);
    expect(await ticketOf(first.ticketId)).toMatchObject({ queueId: null, chatbotId: null });
  });
});
