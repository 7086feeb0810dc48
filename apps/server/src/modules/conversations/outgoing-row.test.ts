import type { ExternalSendResponse } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, tickets, webhookDeliveries, whatsapps } from '../../db/schema/index.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, type TestApp } from '../../../test/helpers.js';
import { createConnection } from '../../../test/connections.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';
import { Receiver } from '../../../test/fakes/webhook-receiver.js';

/**
 * An outgoing message is stored with its ticket's touch in one statement when no webhook wants it,
 * in a transaction with the webhook outbox row when one does: both ways leave the same ticket.
 */

let t: TestApp;
let graph: FakeGraph;
let receiver: Receiver;
const companies: Record<'plain' | 'subscribed', { companyId: number; conn: typeof whatsapps.$inferSelect }> = {} as never;

beforeAll(async () => {
  graph = await FakeGraph.start();
  receiver = await Receiver.start();
  t = await createTestApp({ ...metaEnv(graph.url), LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
  for (const kind of ['plain', 'subscribed'] as const) {
    const own = await createCompanyWithAdmin(t.db);
    const conn = await createConnection(t.db, own.company.id);
    companies[kind] = { companyId: own.company.id, conn };
    if (kind === 'subscribed') {
      const admin = await login(t.app, own.email, own.password);
      const res = await t.app.inject({ method: 'POST', url: '/webhooks', headers: bearer(admin.token), payload: { url: `${receiver.url}/hook`, events: ['message.created'] } });
      expect(res.statusCode, res.body).toBe(200);
    }
  }
});

afterAll(async () => {
  await t.close();
  await graph.close();
  await receiver.close();
});

async function send(kind: keyof typeof companies, body: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/messages/send', headers: bearer(companies[kind].conn.token!), payload: { number: '5511977001122', body } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ExternalSendResponse>();
}

const ticketRow = async (id: number) => (await t.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
const messageRow = async (id: number) => (await t.db.select().from(messages).where(eq(messages.id, id)))[0]!;

describe('an outgoing message and its ticket', () => {
  it.each(['plain', 'subscribed'] as const)('touch the ticket as one change (%s company)', async (kind) => {
    const first = await send(kind, 'Primeira');
    await t.db.update(tickets).set({ unreadMessages: 3, lastMessageFromMe: false }).where(eq(tickets.id, first.ticketId));
    const before = await ticketRow(first.ticketId);

    const second = await send(kind, 'Segunda');
    expect(second.ticketId).toBe(first.ticketId);
    const message = await messageRow(second.messageId);
    expect(message).toMatchObject({ body: 'Segunda', fromMe: true, read: true, isPrivate: false, whatsappId: companies[kind].conn.id, queueId: before.queueId });
    expect(['pending', 'sent']).toContain(message.sendStatus);
    expect(message.sendAttempts).toBe(1);
    const after = await ticketRow(first.ticketId);
    expect(after).toMatchObject({ lastMessage: 'Segunda', lastMessageFromMe: true, lastMessageAt: message.createdAt, unreadMessages: 3, status: before.status });
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());

    // A newer preview (a message stored meanwhile) is kept.
    const later = new Date(Date.now() + 3_600_000);
    await t.db.update(tickets).set({ lastMessage: 'Mais nova', lastMessageAt: later, lastMessageFromMe: false }).where(eq(tickets.id, first.ticketId));
    await send(kind, 'Terceira');
    expect(await ticketRow(first.ticketId)).toMatchObject({ lastMessage: 'Mais nova', lastMessageAt: later, lastMessageFromMe: false, unreadMessages: 3 });

    // Only the company whose endpoint wants message.created gets its outbox rows (written with the message).
    const deliveries = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.companyId, companies[kind].companyId));
    expect(deliveries.filter((d) => d.event === 'message.created')).toHaveLength(kind === 'subscribed' ? 3 : 0);
  });
});
