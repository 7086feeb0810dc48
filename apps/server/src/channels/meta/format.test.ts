import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, tickets } from '../../db/schema/index.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { FakeGraph, PNG } from '../../../test/fakes/graph-server.js';
import { multipart } from '../../../test/multipart.js';
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

async function openTicket(channel: 'facebook' | 'instagram', psid: string) {
  const conn = await createConnection(t.db, companyId, { channel });
  const [contact] = await t.db.insert(contacts).values({ companyId, channel, name: 'Cliente', number: psid, remoteJid: psid }).returning();
  const [ticket] = await t.db
    .insert(tickets)
    .values({ companyId, contactId: contact!.id, whatsappId: conn.id, channel, status: 'open', userId: admin.user.id })
    .returning();
  return ticket!;
}

const textSentTo = (psid: string) =>
  eventually(async () =>
    graph.sends().find((s) => {
      const body = s.body as { recipient: { id: string }; message: { text?: string } };
      return body.recipient.id === psid && typeof body.message.text === 'string';
    }),
  );

describe('text format per channel (issue 12)', () => {
  it('sends a media caption with WhatsApp markup to Messenger as plain text', async () => {
    const psid = '770099';
    const ticket = await openTicket('facebook', psid);
    const form = multipart({ isPrivate: 'false', body: '*Segue* o _comprovante_' }, { field: 'medias', name: 'foto.png', type: 'image/png', data: PNG });
    const res = await t.app.inject({ method: 'POST', url: `/messages/${ticket.id}`, headers: { ...bearer(admin.token), ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(200);
    const sent = await textSentTo(psid);
    expect((sent.body as { message: { text: string } }).message.text).toBe('Segue o comprovante');
  });

  it('sends WhatsApp markup to Messenger and Instagram as plain text and keeps it in the stored message', async () => {
    for (const [i, channel] of (['facebook', 'instagram'] as const).entries()) {
      const psid = `77000${i}`;
      const ticket = await openTicket(channel, psid);
      const body = '*Ana:*\nPreço _especial_ só hoje';
      const res = await t.app.inject({ method: 'POST', url: `/messages/${ticket.id}`, headers: bearer(admin.token), payload: { body } });
      expect(res.statusCode).toBe(200);

      const sent = await textSentTo(psid);
      expect((sent.body as { message: { text: string } }).message.text).toBe('Ana:\nPreço especial só hoje');
      const [stored] = await t.db.select().from(messages).where(eq(messages.ticketId, ticket.id));
      expect(stored?.body).toBe(body);
    }
  });
});
