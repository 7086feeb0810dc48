import type { AppMessageEventPayload, ContactEventPayload, ListMessagesResponse, Message, Ticket, TicketEventPayload } from '@balcao/contracts';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, collect, createCompanyWithAdmin, login, type LoggedIn, type TestApp } from '../../test/helpers.js';
import { createConnection, eventually } from '../../test/connections.js';
import { createAdminTestApp, createPlainUser, listen, openSocket } from '../../test/roles.js';
import { createContact, createQueue, createTicketRow, joinQueues, setCompanySettings } from '../../test/tickets.js';
import { messages } from '../db/schema/index.js';

/**
 * Issue 10 point 4: with lgpdHideNumber on, a non-admin never gets a contact's number,
 * on any path (HTTP answers and socket events) nor through a name that is the number
 * (a WhatsApp contact without a push name); the admin gets them as they are.
 */

const NUMBER = '5511987654321';
const MASKED = '5511*****4321';

let t: TestApp;
let companyId: number;
let admin: LoggedIn;
let plain: LoggedIn;
let ticketId: number;
let ticketUuid: string;
let contactId: number;
let customerMessageId: number;
const sockets: Socket[] = [];
const heard = {} as Record<'admin' | 'plain', { tickets: TicketEventPayload[]; messages: AppMessageEventPayload[]; contacts: ContactEventPayload[] }>;

beforeAll(async () => {
  t = await createAdminTestApp();
  const port = await listen(t);
  const own = await createCompanyWithAdmin(t.db);
  companyId = own.company.id;
  admin = await login(t.app, own.email, own.password);
  plain = await createPlainUser(t, companyId);
  const queue = (await createQueue(t.db, companyId)).id;
  await joinQueues(t.db, companyId, plain.user.id, [queue]);
  await setCompanySettings(t.db, companyId, { lgpdHideNumber: 'enabled' });
  const whatsappId = (await createConnection(t.db, companyId, { channel: 'whatsapp' })).id;
  const contact = await createContact(t.db, companyId, { channel: 'whatsapp', number: NUMBER, name: NUMBER, remoteJid: `${NUMBER}@s.whatsapp.net` });
  contactId = contact.id;
  const ticket = await createTicketRow(t.db, { companyId, contactId, whatsappId, channel: 'whatsapp', status: 'open', queueId: queue, userId: plain.user.id });
  ticketId = ticket.id;
  ticketUuid = ticket.uuid;
  const [row] = await t.db.insert(messages).values({ companyId, ticketId, contactId, whatsappId, body: 'oi', fromMe: false }).returning();
  customerMessageId = row!.id;

  for (const [name, session] of [['admin', admin], ['plain', plain]] as const) {
    const socket = await openSocket(port, session);
    sockets.push(socket);
    heard[name] = {
      tickets: collect(socket, `company-${companyId}-ticket`),
      messages: collect(socket, `company-${companyId}-appMessage`),
      contacts: collect(socket, `company-${companyId}-contact`),
    };
  }
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const get = <T>(session: LoggedIn, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(session.token) }).then((r) => r.json<T>());
/** Every name and number of the customer in a payload: contacts sit under `contact`/`contacts` keys, or are the payload. */
function customerFields(value: unknown): string[] {
  const found: string[] = [];
  const take = (c: unknown) => {
    const o = c as { id?: unknown; name?: unknown; number?: unknown } | null;
    if (o?.id !== contactId) return;
    if (typeof o.name === 'string') found.push(o.name);
    if (typeof o.number === 'string') found.push(o.number);
  };
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    for (const [key, inner] of Object.entries(v)) {
      if (key === 'contact') take(inner);
      if (key === 'contacts' && Array.isArray(inner)) inner.forEach(take);
      walk(inner);
    }
  };
  if (typeof (value as { number?: unknown }).number === 'string') take(value);
  walk(value);
  return found;
}
function expectOnly(value: unknown, shown: string, label: string) {
  const fields = customerFields(value);
  expect(fields.length, `${label}: carries the customer`).toBeGreaterThan(0);
  expect(fields.filter((f) => f !== shown), label).toEqual([]);
  expect(JSON.stringify(value).includes(shown === MASKED ? NUMBER : MASKED), label).toBe(false);
}

describe('LGPD mask on every path', () => {
  it('HTTP: tickets (list, by uuid, by id), messages (ticket, names, quotes) and contacts', async () => {
    for (const [session, shown] of [[plain, MASKED], [admin, NUMBER]] as const) {
      const who = session === admin ? 'admin' : 'plain';
      expectOnly(await get(session, '/tickets?status=open&showAll=true'), shown, `${who} GET /tickets`);
      expectOnly(await get<Ticket>(session, `/tickets/u/${ticketUuid}`), shown, `${who} GET /tickets/u`);
      expectOnly(await get<Ticket>(session, `/tickets/${ticketId}`), shown, `${who} GET /tickets/:id`);
      const page = await get<ListMessagesResponse>(session, `/messages/${ticketId}`);
      expectOnly(page.messages, shown, `${who} GET /messages messages`);
      expectOnly(page.ticket, shown, `${who} GET /messages ticket`);
      expectOnly(await get(session, `/contacts/${contactId}`), shown, `${who} GET /contacts/:id`);
      expectOnly(await get(session, '/contacts'), shown, `${who} GET /contacts`);
    }
  });

  it('socket: ticket update, message create and update (quoting the customer) and contact update', async () => {
    const note = await t.app.inject({
      method: 'POST',
      url: `/messages/${ticketId}`,
      headers: bearer(admin.token),
      payload: { body: 'nota', isPrivate: true, quotedMsg: { id: customerMessageId } },
    });
    expect(note.statusCode, note.body).toBe(200);
    const noteId = note.json<Message>().id;
    const edited = await t.app.inject({ method: 'POST', url: `/messages/edit/${noteId}`, headers: bearer(admin.token), payload: { body: 'nota editada' } });
    expect(edited.statusCode, edited.body).toBe(200);
    const renamed = await t.app.inject({ method: 'PUT', url: `/contacts/${contactId}`, headers: bearer(admin.token), payload: { name: NUMBER, number: NUMBER, email: '' } });
    expect(renamed.statusCode, renamed.body).toBe(200);

    for (const [who, shown] of [['plain', MASKED], ['admin', NUMBER]] as const) {
      const h = heard[who];
      const created = await eventually(async () => h.messages.find((p) => p.action === 'create' && p.message.id === noteId));
      expectOnly(created, shown, `${who} appMessage create`);
      const update = await eventually(async () => h.messages.find((p) => p.action === 'update' && p.message.body === 'nota editada'));
      expectOnly(update, shown, `${who} appMessage update`);
      const ticket = await eventually(async () => h.tickets.find((p) => p.action === 'update' && p.ticket.id === ticketId));
      expectOnly(ticket, shown, `${who} ticket update`);
      const contact = await eventually(async () => h.contacts.find((p) => p.action === 'update' && p.contact.id === contactId));
      expectOnly(contact, shown, `${who} contact update`);
    }
  });
});
