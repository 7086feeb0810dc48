import type { AppMessageEventPayload, TicketEventPayload } from '@balcao/contracts';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, collect, createCompanyWithAdmin, login, sleep, type LoggedIn, type TestApp } from '../../test/helpers.js';
import { createConnection, eventually } from '../../test/connections.js';
import { createAdminTestApp, createPlainUser, listen, openSocket } from '../../test/roles.js';
import { createContact, createQueue, createTicketRow, joinQueues } from '../../test/tickets.js';

/**
 * Issue 9 point 1: HTTP and socket agree, cell by cell, on who sees a ticket. Every
 * viewer listens; an admin writes a private note in each ticket; each viewer must hear
 * the note (and the ticket's update) exactly when `GET /tickets/u/{uuid}` answers 200.
 */

const VIEWERS = ['admin', 'allTicket', 'allHistoric', 'allUserChat', 'plain', 'otherQueue'] as const;
type Viewer = (typeof VIEWERS)[number];
const COLUMNS = ['unassigned', 'ownedBySelf', 'ownedByColleague', 'noQueueUnassigned', 'noQueueColleague', 'groupUnassigned'] as const;
type Column = (typeof COLUMNS)[number];

/** The visibility rule of docs/inbox.md, written out: every user is in queue A1 except `otherQueue` (A2). */
const EXPECTED: Record<Viewer, Column[]> = {
  admin: [...COLUMNS],
  allTicket: ['unassigned', 'ownedBySelf', 'ownedByColleague', 'noQueueUnassigned', 'noQueueColleague'],
  allHistoric: ['unassigned', 'ownedBySelf', 'ownedByColleague'],
  // The only one with allowGroup.
  allUserChat: ['unassigned', 'ownedBySelf', 'ownedByColleague', 'groupUnassigned'],
  plain: ['unassigned', 'ownedBySelf'],
  otherQueue: ['ownedBySelf'],
};

let t: TestApp;
let port: number;
let companyId: number;
let admin: LoggedIn;
const session = {} as Record<Viewer, LoggedIn>;
/** ticket ids per viewer and column (shared columns hold the same ticket for everyone). */
const ticketOf = {} as Record<Viewer, Record<Column, { id: number; uuid: string }>>;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createAdminTestApp();
  port = await listen(t);
  const own = await createCompanyWithAdmin(t.db);
  companyId = own.company.id;
  admin = await login(t.app, own.email, own.password);
  const a1 = (await createQueue(t.db, companyId, 'A1')).id;
  const a2 = (await createQueue(t.db, companyId, 'A2')).id;
  const whatsappId = (await createConnection(t.db, companyId)).id;

  session.admin = admin;
  session.allTicket = await createPlainUser(t, companyId, { allTicket: 'enabled' });
  session.allHistoric = await createPlainUser(t, companyId, { allHistoric: 'enabled' });
  session.allUserChat = await createPlainUser(t, companyId, { allUserChat: 'enabled', allowGroup: true });
  session.plain = await createPlainUser(t, companyId);
  session.otherQueue = await createPlainUser(t, companyId);
  const colleague = await createPlainUser(t, companyId);
  for (const v of ['allTicket', 'allHistoric', 'allUserChat', 'plain'] as const) await joinQueues(t.db, companyId, session[v].user.id, [a1]);
  await joinQueues(t.db, companyId, session.otherQueue.user.id, [a2]);
  await joinQueues(t.db, companyId, colleague.user.id, [a1]);

  const ticket = async (fields: { queueId: number | null; userId: number | null; status?: 'open' | 'group' }) => {
    const contact = await createContact(t.db, companyId, { isGroup: fields.status === 'group' });
    return createTicketRow(t.db, { companyId, contactId: contact.id, whatsappId, status: 'open', ...fields });
  };
  const shared = {
    unassigned: await ticket({ queueId: a1, userId: null }),
    ownedByColleague: await ticket({ queueId: a1, userId: colleague.user.id }),
    noQueueUnassigned: await ticket({ queueId: null, userId: null }),
    noQueueColleague: await ticket({ queueId: null, userId: colleague.user.id }),
    groupUnassigned: await ticket({ queueId: a1, userId: null, status: 'group' }),
  };
  for (const v of VIEWERS) {
    ticketOf[v] = { ...shared, ownedBySelf: await ticket({ queueId: v === 'otherQueue' ? a2 : a1, userId: session[v].user.id }) };
  }
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

describe('who hears a ticket: the visibility matrix, HTTP and socket', () => {
  it('every viewer × ticket cell: socket events exactly where GET /tickets/u/{uuid} answers 200', async () => {
    const heard = {} as Record<Viewer, { tickets: TicketEventPayload[]; messages: AppMessageEventPayload[] }>;
    for (const v of VIEWERS) {
      const socket = await openSocket(port, session[v]);
      sockets.push(socket);
      heard[v] = {
        tickets: collect<TicketEventPayload>(socket, `company-${companyId}-ticket`),
        messages: collect<AppMessageEventPayload>(socket, `company-${companyId}-appMessage`),
      };
    }

    const notes = new Map<number, string>();
    const ticketIds = new Set(VIEWERS.flatMap((v) => COLUMNS.map((c) => ticketOf[v][c].id)));
    for (const id of ticketIds) {
      const body = `nota privada ${id}`;
      const res = await t.app.inject({ method: 'POST', url: `/messages/${id}`, headers: bearer(admin.token), payload: { body, isPrivate: true } });
      expect(res.statusCode, res.body).toBe(200);
      notes.set(id, body);
    }
    // The admin hears every note: once they are all in, the others have had their chance too.
    await eventually(async () => heard.admin.messages.length >= ticketIds.size);
    await sleep(300);

    for (const v of VIEWERS) {
      for (const column of COLUMNS) {
        const { id, uuid } = ticketOf[v][column];
        const cell = `${v} × ${column}`;
        const http = await t.app.inject({ method: 'GET', url: `/tickets/u/${uuid}`, headers: bearer(session[v].token) });
        const allowed = EXPECTED[v].includes(column);
        expect(http.statusCode, cell).toBe(allowed ? 200 : 403);
        const gotNote = heard[v].messages.some((p) => p.action === 'create' && p.message.ticketId === id && p.message.body === notes.get(id));
        const gotTicket = heard[v].tickets.some((p) => p.action === 'update' && p.ticket.id === id);
        expect({ cell, gotNote, gotTicket }).toEqual({ cell, gotNote: allowed, gotTicket: allowed });
      }
    }
  });
});
