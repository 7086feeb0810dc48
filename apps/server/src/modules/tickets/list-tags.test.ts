import { ticketListResponse } from '@balcao/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection } from '../../../test/connections.js';
import { setupRoles, type Roles } from '../../../test/roles.js';
import { createContact, createQueue, createTicketRow, joinQueues } from '../../../test/tickets.js';
import { tags } from '../../db/schema/index.js';

// A tag filter reads the tag's links narrowed by the copy of their ticket's status and owner that `ticket_tags`
// carries (migration 0044, kept by triggers): the filter must follow a tagged ticket through every change.
let t: TestApp;
let roles: Roles;
let queueId: number;
let connId: number;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
  roles = await setupRoles(t);
  queueId = (await createQueue(t.db, roles.companyId, 'Vendas')).id;
  await joinQueues(t.db, roles.companyId, roles.user.user.id, [queueId]);
  connId = (await createConnection(t.db, roles.companyId, {}, [queueId])).id;
});
afterAll(async () => {
  await t.close();
});

const call = (s: LoggedIn, method: 'GET' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url, headers: bearer(s.token), payload });

/** The ids a tag filter lists for the caller in a view. */
async function tagged(s: LoggedIn, tagId: number, view: Record<string, string>): Promise<number[]> {
  const res = await call(s, 'GET', `/tickets?${new URLSearchParams({ tags: `[${tagId}]`, ...view }).toString()}`);
  expect(res.statusCode, res.body).toBe(200);
  return ticketListResponse.parse(res.json()).tickets.map((tk) => tk.id);
}

describe('tag filters follow a tagged ticket through accept, transfer and close', () => {
  it('lists it in the tab and for the owner it has now, never where it was', async () => {
    const [tag] = await t.db.insert(tags).values({ companyId: roles.companyId, name: 'Seguir', color: '#123456' }).returning();
    const contact = await createContact(t.db, roles.companyId);
    const ticket = await createTicketRow(t.db, { companyId: roles.companyId, contactId: contact.id, whatsappId: connId, queueId, status: 'pending' });
    expect((await call(roles.user, 'PUT', `/ticket-tags/${ticket.id}/${tag!.id}`)).statusCode).toBe(200);
    const where = async () => ({
      userPending: await tagged(roles.user, tag!.id, { status: 'pending' }),
      userOpen: await tagged(roles.user, tag!.id, { status: 'open' }),
      userClosed: await tagged(roles.user, tag!.id, { status: 'closed' }),
      adminOpen: await tagged(roles.admin, tag!.id, { status: 'open' }),
      adminOpenAll: await tagged(roles.admin, tag!.id, { status: 'open', showAll: 'true' }),
      adminClosed: await tagged(roles.admin, tag!.id, { status: 'closed' }),
      adminSearch: await tagged(roles.admin, tag!.id, {}),
    });
    const none = { userPending: [], userOpen: [], userClosed: [], adminOpen: [], adminOpenAll: [], adminClosed: [], adminSearch: [ticket.id] };
    expect(await where()).toEqual({ ...none, userPending: [ticket.id] });

    // The admin accepts it: open, the admin's own (the plain user no longer sees it).
    expect((await call(roles.admin, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: roles.admin.user.id })).statusCode).toBe(200);
    expect(await where()).toEqual({ ...none, adminOpen: [ticket.id], adminOpenAll: [ticket.id] });

    // Transferred to the plain user: theirs, out of the admin's own tab (still under show-all).
    expect((await call(roles.admin, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: roles.user.user.id, queueId, isTransfered: true })).statusCode).toBe(200);
    expect(await where()).toEqual({ ...none, userOpen: [ticket.id], adminOpenAll: [ticket.id] });

    // Closed by them: in both closed histories.
    expect((await call(roles.user, 'PUT', `/tickets/${ticket.id}`, { status: 'closed' })).statusCode).toBe(200);
    expect(await where()).toEqual({ ...none, userClosed: [ticket.id], adminClosed: [ticket.id] });
  });

  it('a tag put on a closed ticket lists it as closed', async () => {
    const [tag] = await t.db.insert(tags).values({ companyId: roles.companyId, name: 'Depois', color: '#654321' }).returning();
    const contact = await createContact(t.db, roles.companyId);
    const ticket = await createTicketRow(t.db, { companyId: roles.companyId, contactId: contact.id, whatsappId: connId, queueId, status: 'closed', userId: roles.user.user.id });
    expect((await call(roles.admin, 'PUT', `/ticket-tags/${ticket.id}/${tag!.id}`)).statusCode).toBe(200);
    expect(await tagged(roles.user, tag!.id, { status: 'closed' })).toEqual([ticket.id]);
    expect(await tagged(roles.admin, tag!.id, { status: 'closed' })).toEqual([ticket.id]);
    expect(await tagged(roles.admin, tag!.id, { status: 'open', showAll: 'true' })).toEqual([]);
    // Another company's admin sees nothing of it.
    expect(await tagged(roles.otherAdmin, tag!.id, {})).toEqual([]);
  });
});
