import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, tickets } from '../../db/schema/index.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../test/fakes/meta-webhook.js';

let graph: FakeGraph;
let t: TestApp;
let admin: LoggedIn;
let companyId: number;

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp(metaEnv(graph.url));
  const c = await createCompanyWithAdmin(t.db);
  companyId = c.company.id;
  admin = await login(t.app, c.email, c.password);
});
afterAll(async () => {
  await t.close();
  await graph.close();
});

describe('text format per channel (issue 12)', () => {
  it('sends WhatsApp markup to Messenger and Instagram as plain text and keeps it in the stored message', async () => {
    for (const [i, channel] of (['facebook', 'instagram'] as const).entries()) {
      const conn = await createConnection(t.db, companyId, { channel });
      const psid = `77000${i}`;
      const [contact] = await t.db.insert(contacts).values({ companyId, channel, name: 'Cliente', number: psid, remoteJid: psid }).returning();
      const [ticket] = await t.db
        .insert(tickets)
        .values({ companyId, contactId: contact!.id, whatsappId: conn.id, channel, status: 'open', userId: admin.user.id })
        .returning();
      const body = '*Ana:*\nPreço _especial_ só hoje';
      const res = await t.app.inject({ method: 'POST', url: `/messages/${ticket!.id}`, headers: bearer(admin.token), payload: { body } });
      expect(res.statusCode).toBe(200);

      const sent = await eventually(async () => graph.sends().find((s) => (s.body as { recipient: { id: string } }).recipient.id === psid));
      expect((sent.body as { message: { text: string } }).message.text).toBe('Ana:\nPreço especial só hoje');
      const [stored] = await t.db.select().from(messages).where(eq(messages.ticketId, ticket!.id));
      expect(stored?.body).toBe(body);
    }
  });
});
