import type { Ticket, TicketLog } from '@balcao/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../channels/inbound-event.js';
import { processInbound } from '../conversations/inbound.js';
import { bearer, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createAdminTestApp, createPlainUser, setupRoles, type Roles } from '../../../test/roles.js';
import { createConnection, reloadConnection } from '../../../test/connections.js';
import { createContact, createQueue, joinQueues, logsOf } from '../../../test/tickets.js';
import { markClosed } from '../conversations/commands/tickets.js';

let t: TestApp;
let roles: Roles;
let companyId: number;
let queue: { id: number; name: string; color: string };
let connId: number;

const getLogs = (s: LoggedIn, id: number | string) => t.app.inject({ method: 'GET', url: `/tickets-log/${id}`, headers: bearer(s.token) });
const put = (s: LoggedIn, id: number, payload: object) => t.app.inject({ method: 'PUT', url: `/tickets/${id}`, headers: bearer(s.token), payload });

beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
  companyId = roles.companyId;
  queue = await createQueue(t.db, companyId, 'Vendas');
  await joinQueues(t.db, companyId, roles.user.user.id, [queue.id]);
  connId = (await createConnection(t.db, companyId, { timeCreateNewTicket: 60 }, [queue.id])).id;
});

afterAll(() => t.close());

describe('GET /tickets-log/{ticketId}', () => {
  it('lists every transition oldest first, with user and queue', async () => {
    const contact = await createContact(t.db, companyId);
    const created = await t.app.inject({
      method: 'POST',
      url: '/tickets',
      headers: bearer(roles.admin.token),
      payload: { contactId: contact.id, queueId: queue.id, whatsappId: connId, status: 'open' },
    });
    const ticket = created.json<Ticket>();
    expect((await put(roles.admin, ticket.id, { isTransfered: true, queueId: queue.id, userId: null })).statusCode).toBe(200);
    expect((await put(roles.user, ticket.id, { status: 'open' })).statusCode).toBe(200);
    expect((await put(roles.user, ticket.id, { status: 'closed', sendFarewellMessage: false })).statusCode).toBe(200);

    const res = await getLogs(roles.user, ticket.id);
    expect(res.statusCode).toBe(200);
    const logs = res.json<TicketLog[]>();
    expect(logs.map((l) => l.type)).toEqual(['create', 'transfered', 'open', 'closed']);
    const admin = { id: roles.admin.user.id, name: roles.admin.user.name };
    const user = { id: roles.user.user.id, name: roles.user.user.name };
    const q = { id: queue.id, name: queue.name, color: queue.color };
    expect(logs).toEqual([
      { id: expect.any(Number), type: 'create', createdAt: expect.any(String), ticketId: ticket.id, user: admin, queue: q },
      { id: expect.any(Number), type: 'transfered', createdAt: expect.any(String), ticketId: ticket.id, user: admin, queue: q },
      { id: expect.any(Number), type: 'open', createdAt: expect.any(String), ticketId: ticket.id, user, queue: q },
      { id: expect.any(Number), type: 'closed', createdAt: expect.any(String), ticketId: ticket.id, user, queue: q },
    ]);
    const times = logs.map((l) => Date.parse(l.createdAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('follows the ticket’s visibility: 403 for a user who may not see it, 404 for another company, 400 for a bad id', async () => {
    const contact = await createContact(t.db, companyId);
    const ticket = (
      await t.app.inject({
        method: 'POST',
        url: '/tickets',
        headers: bearer(roles.user.token),
        payload: { contactId: contact.id, queueId: queue.id, whatsappId: connId, status: 'open' },
      })
    ).json<Ticket>();
    const outsider = await createPlainUser(t, companyId);
    const refused = await getLogs(outsider, ticket.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const foreign = await getLogs(roles.otherAdmin, ticket.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    expect((await getLogs(roles.admin, 'abc')).statusCode).toBe(400);
    expect((await getLogs(roles.admin, ticket.id)).json<TicketLog[]>()).toHaveLength(1);
  });

  it('records the inbound pipeline’s new and reopened tickets', async () => {
    const conn = (await reloadConnection(t.db, connId))!;
    const say = async (wid: string) => {
      const event: InboundMessage = {
        kind: 'message',
        wid,
        fromMe: false,
        body: 'Oi',
        mediaType: 'chat',
        at: new Date(),
        chat: { number: '4400001', name: 'Cliente', remoteJid: '4400001', isGroup: false },
        raw: {},
      };
      const result = await processInbound(t.app.ctx, conn, event);
      if (result.outcome !== 'stored') throw new Error(result.outcome);
      return result.ticketId;
    };
    const ticketId = await say('m_logs_1');
    expect(await logsOf(t.db, ticketId)).toMatchObject([{ type: 'create', userId: null, queueId: queue.id }]);
    await markClosed(t.app.ctx, ticketId);
    expect(await say('m_logs_2')).toBe(ticketId);
    expect((await logsOf(t.db, ticketId)).map((l) => l.type)).toEqual(['create', 'closed', 'reopen']);
  });

  it('writes an access entry when an attendant opens a conversation with unread messages, once per read', async () => {
    const conn = (await reloadConnection(t.db, connId))!;
    const result = await processInbound(t.app.ctx, conn, {
      kind: 'message',
      wid: 'm_logs_access_1',
      fromMe: false,
      body: 'Alguém?',
      mediaType: 'chat',
      at: new Date(),
      chat: { number: '4400002', name: 'Cliente', remoteJid: '4400002', isGroup: false },
      raw: {},
    });
    if (result.outcome !== 'stored') throw new Error(result.outcome);
    const open = () => t.app.inject({ method: 'GET', url: `/messages/${result.ticketId}`, headers: bearer(roles.user.token) });
    expect((await open()).statusCode).toBe(200);
    expect((await open()).statusCode).toBe(200);
    const logs = await logsOf(t.db, result.ticketId);
    expect(logs.map((l) => l.type)).toEqual(['create', 'access']);
    expect(logs[1]).toMatchObject({ userId: roles.user.user.id, queueId: queue.id });
  });
});
