import type { Ticket } from '@balcao/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, collect, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createAdminTestApp, listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { createContact, createQueue, createTicketRow, joinQueues, logsOf, ticketRow } from '../../../test/tickets.js';

let t: TestApp;
let roles: Roles;
let companyId: number;
let queueA: number;
let queueB: number;
let connId: number;
let port: number;

async function newTicket(fields: Partial<Parameters<typeof createTicketRow>[1]> = {}) {
  const contact = await createContact(t.db, fields.companyId ?? companyId);
  return createTicketRow(t.db, { companyId, contactId: contact.id, whatsappId: connId, queueId: queueA, ...fields });
}
const del = (s: LoggedIn, id: number) => t.app.inject({ method: 'DELETE', url: `/tickets/${id}`, headers: bearer(s.token) });
const closeAll = (s: LoggedIn, payload: object) => t.app.inject({ method: 'POST', url: '/tickets/closeAll', headers: bearer(s.token), payload });

beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
  companyId = roles.companyId;
  queueA = (await createQueue(t.db, companyId)).id;
  queueB = (await createQueue(t.db, companyId)).id;
  await joinQueues(t.db, companyId, roles.user.user.id, [queueA, queueB]);
  connId = (await createConnection(t.db, companyId)).id;
  port = await listen(t);
});

afterAll(() => t.close());

describe('DELETE /tickets/{id}', () => {
  it('is for ticket-options:deleteTicket (admins): a plain user gets 403 even on their own ticket', async () => {
    const ticket = await newTicket({ status: 'open', userId: roles.user.user.id });
    const res = await del(roles.user, ticket.id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await ticketRow(t.db, ticket.id)).toBeDefined();
  });

  it('deletes a live ticket and tells its rooms', async () => {
    const socket = await openSocket(port, roles.user);
    try {
      const events = collect<{ action: string; ticketId?: number }>(socket, `company-${companyId}-ticket`);
      const ticket = await newTicket({ status: 'pending' });
      const res = await del(roles.admin, ticket.id);
      expect(res.statusCode).toBe(200);
      expect(await ticketRow(t.db, ticket.id)).toBeUndefined();
      await eventually(async () => events.find((e) => e.action === 'delete' && e.ticketId === ticket.id));
    } finally {
      socket.disconnect();
    }
  });

  it('refuses a closed ticket: 400 ERR_DELETE_CLOSED_TICKET', async () => {
    const ticket = await newTicket({ status: 'closed', closedAt: new Date() });
    const res = await del(roles.admin, ticket.id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_DELETE_CLOSED_TICKET' });
    expect(await ticketRow(t.db, ticket.id)).toBeDefined();
  });

  it('answers 404 for another company’s ticket and deletes nothing', async () => {
    const ticket = await newTicket({ status: 'open' });
    const res = await del(roles.otherAdmin, ticket.id);
    expect(res.statusCode).toBe(404);
    expect(await ticketRow(t.db, ticket.id)).toBeDefined();
    expect((await t.app.inject({ method: 'DELETE', url: '/tickets/x', headers: bearer(roles.admin.token) })).statusCode).toBe(400);
  });
});

describe('POST /tickets/closeAll', () => {
  it('is admin only (403 for a plain user; nothing closes)', async () => {
    const ticket = await newTicket({ status: 'pending' });
    const res = await closeAll(roles.user, { status: 'pending', selectedQueueIds: [queueA] });
    expect(res.statusCode).toBe(403);
    expect((await ticketRow(t.db, ticket.id))!.status).toBe('pending');
  });

  it('closes the company’s tickets of that status in the selected queues, one log each, and announces them', async () => {
    const socket = await openSocket(port, roles.admin);
    try {
      const events = collect<{ action: string; ticket?: Ticket }>(socket, `company-${companyId}-ticket`);
      // A fresh queue: earlier tests leave pending tickets in queueA.
      const fresh = (await createQueue(t.db, companyId)).id;
      const pendingA = [await newTicket({ status: 'pending', queueId: fresh }), await newTicket({ status: 'pending', queueId: fresh })];
      const pendingB = await newTicket({ status: 'pending', queueId: queueB });
      const openA = await newTicket({ status: 'open', userId: roles.user.user.id, queueId: fresh });
      const otherQueue = await createQueue(t.db, roles.otherCompanyId);
      const otherConn = await createConnection(t.db, roles.otherCompanyId);
      const otherCompany = await newTicket({ companyId: roles.otherCompanyId, whatsappId: otherConn.id, queueId: otherQueue.id, status: 'pending' });

      const res = await closeAll(roles.admin, { status: 'pending', selectedQueueIds: [fresh] });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ count: 2 });
      for (const ticket of pendingA) {
        expect((await ticketRow(t.db, ticket.id))!.status).toBe('closed');
        expect(await logsOf(t.db, ticket.id)).toMatchObject([{ type: 'closed', userId: roles.admin.user.id, queueId: fresh }]);
      }
      expect((await ticketRow(t.db, pendingB.id))!.status).toBe('pending');
      expect((await ticketRow(t.db, openA.id))!.status).toBe('open');
      expect((await ticketRow(t.db, otherCompany.id))!.status).toBe('pending');
      await eventually(async () =>
        pendingA.every((p) => events.some((e) => e.action === 'update' && e.ticket?.id === p.id && e.ticket.status === 'closed')),
      );
    } finally {
      socket.disconnect();
    }
  });

  it('refuses another company’s queue ids (404) and closes nothing', async () => {
    const mine = await newTicket({ status: 'pending' });
    const theirs = await createQueue(t.db, roles.otherCompanyId);
    const res = await closeAll(roles.admin, { status: 'pending', selectedQueueIds: [queueA, theirs.id] });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_QUEUE_FOUND' });
    expect((await ticketRow(t.db, mine.id))!.status).toBe('pending');
    const foreign = await closeAll(roles.otherAdmin, { status: 'pending', selectedQueueIds: [queueA] });
    expect(foreign.statusCode).toBe(404);
    expect((await ticketRow(t.db, mine.id))!.status).toBe('pending');
  });

  it('refuses invalid bodies with 400', async () => {
    for (const payload of [{}, { status: 'closed', selectedQueueIds: [queueA] }, { status: 'pending', selectedQueueIds: 'all' }]) {
      expect((await closeAll(roles.admin, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});
