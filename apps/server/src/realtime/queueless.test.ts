import type { AppMessageEventPayload, TicketEventPayload } from '@balcao/contracts';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, collect, createCompanyWithAdmin, createTestApp, login, sleep, type LoggedIn, type TestApp } from '../../test/helpers.js';
import { createConnection, eventually } from '../../test/connections.js';
import { FakeGraph } from '../../test/fakes/graph-server.js';
import { messengerText, metaEnv, postWebhook } from '../../test/fakes/meta-webhook.js';
import { createPlainUser, listen, openSocket } from '../../test/roles.js';
import { createQueue, joinQueues } from '../../test/tickets.js';

/**
 * Issue 13 point 6: a new conversation on a connection without queues (so a ticket
 * without a queue) arrives live on the sockets of those who may see it, admins and
 * allTicket users, exactly like a ticket with a queue; never on anyone else's.
 */

let t: TestApp;
let graph: FakeGraph;
let companyId: number;
let pageId: string;
const viewers = {} as Record<'admin' | 'allTicket' | 'allHistoric' | 'plain', LoggedIn>;
const sockets: Socket[] = [];

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), LOGIN_MAX_PER_IP: '1000', LOGIN_MAX_PER_EMAIL: '1000' });
  await listen(t);
  const own = await createCompanyWithAdmin(t.db);
  companyId = own.company.id;
  pageId = (await createConnection(t.db, companyId)).facebookPageId!;
  const queue = (await createQueue(t.db, companyId)).id;
  viewers.admin = await login(t.app, own.email, own.password);
  viewers.allTicket = await createPlainUser(t, companyId, { allTicket: 'enabled' });
  viewers.allHistoric = await createPlainUser(t, companyId, { allHistoric: 'enabled' });
  viewers.plain = await createPlainUser(t, companyId);
  for (const v of [viewers.allTicket, viewers.allHistoric, viewers.plain]) await joinQueues(t.db, companyId, v.user.id, [queue]);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
  await graph.close();
});

describe('a new ticket without a queue', () => {
  it('reaches the admin and allTicket sockets live (ticket and message), and no other socket', async () => {
    const port = (t.app.server.address() as { port: number }).port;
    const heard = {} as Record<keyof typeof viewers, { tickets: TicketEventPayload[]; messages: AppMessageEventPayload[] }>;
    for (const [name, session] of Object.entries(viewers) as [keyof typeof viewers, LoggedIn][]) {
      const socket = await openSocket(port, session);
      sockets.push(socket);
      heard[name] = {
        tickets: collect<TicketEventPayload>(socket, `company-${companyId}-ticket`),
        messages: collect<AppMessageEventPayload>(socket, `company-${companyId}-appMessage`),
      };
    }

    const res = await postWebhook(t.app, messengerText(pageId, '4000001', 'm_queueless_1', 'primeira mensagem'));
    expect(res.statusCode).toBe(200);
    const created = await eventually(async () => heard.admin.messages.find((p) => p.action === 'create' && p.message.body === 'primeira mensagem'));
    if (created.action !== 'create') throw new Error('unreachable');
    expect(created.ticket).toMatchObject({ queueId: null, userId: null, status: 'pending' });
    const ticketId = created.ticket.id;
    await eventually(async () => heard.allTicket.messages.find((p) => p.action === 'create' && p.message.ticketId === ticketId));
    await sleep(300);

    for (const name of Object.keys(viewers) as (keyof typeof viewers)[]) {
      const sees = name === 'admin' || name === 'allTicket';
      const http = await t.app.inject({ method: 'GET', url: `/tickets/u/${created.ticket.uuid}`, headers: bearer(viewers[name].token) });
      expect(http.statusCode, name).toBe(sees ? 200 : 403);
      const gotTicket = heard[name].tickets.some((p) => p.action === 'update' && p.ticket.id === ticketId && p.ticket.queueId === null);
      const gotMessage = heard[name].messages.some((p) => p.action === 'create' && p.message.ticketId === ticketId);
      expect({ name, gotTicket, gotMessage }).toEqual({ name, gotTicket: sees, gotMessage: sees });
    }
  });
});
