import type { Ticket } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../../db/schema/index.js';
import { bearer, collect, createCompanyWithAdmin, login, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createAdminTestApp, createPlainUser, listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { createContact, createQueue, joinQueues, logsOf, ticketRow } from '../../../test/tickets.js';

let t: TestApp;
let roles: Roles;
let companyId: number;
let ownQueue: number;
let otherQueue: number;
let connId: number;

const post = (s: LoggedIn, payload: object) => t.app.inject({ method: 'POST', url: '/tickets', headers: bearer(s.token), payload });
const ticketsOfContact = (contactId: number) => t.db.select().from(tickets).where(eq(tickets.contactId, contactId));

beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
  companyId = roles.companyId;
  ownQueue = (await createQueue(t.db, companyId, 'Vendas')).id;
  otherQueue = (await createQueue(t.db, companyId, 'Suporte')).id;
  await joinQueues(t.db, companyId, roles.user.user.id, [ownQueue]);
  connId = (await createConnection(t.db, companyId, { isDefault: true })).id;
});

afterAll(() => t.close());

describe('POST /tickets', () => {
  it('opens a ticket for the caller in their queue, logs its creation; the body’s companyId is ignored', async () => {
    const contact = await createContact(t.db, companyId);
    const res = await post(roles.user, { contactId: contact.id, queueId: ownQueue, whatsappId: connId, userId: roles.user.user.id, companyId: roles.otherCompanyId, status: 'open' });
    expect(res.statusCode).toBe(200);
    const ticket = res.json<Ticket>();
    expect(ticket).toMatchObject({ companyId, status: 'open', contactId: contact.id, queueId: ownQueue, whatsappId: connId, userId: roles.user.user.id, channel: 'facebook' });
    expect(ticket.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(await logsOf(t.db, ticket.id)).toMatchObject([{ type: 'create', userId: roles.user.user.id, queueId: ownQueue }]);
  });

  it('announces the new ticket to those who may see it: its owner, not a plain member of its queue (issue 9)', async () => {
    const port = await listen(t);
    const owner = await openSocket(port, roles.admin);
    const member = await openSocket(port, roles.user);
    try {
      const events = collect<{ action: string; ticket: Ticket }>(owner, `company-${companyId}-ticket`);
      const memberEvents = collect<{ action: string; ticket: Ticket }>(member, `company-${companyId}-ticket`);
      const contact = await createContact(t.db, companyId);
      const res = await post(roles.admin, { contactId: contact.id, queueId: ownQueue, whatsappId: connId, status: 'open' });
      const created = res.json<Ticket>();
      const event = await eventually(async () => events.find((e) => e.ticket?.id === created.id));
      expect(event).toMatchObject({ action: 'update', ticket: { uuid: created.uuid, status: 'open', userId: roles.admin.user.id } });
      expect(memberEvents.filter((e) => e.ticket?.id === created.id)).toEqual([]);
    } finally {
      owner.disconnect();
      member.disconnect();
    }
  });

  it('uses the company’s default connection when none is given', async () => {
    const contact = await createContact(t.db, companyId);
    const res = await post(roles.admin, { contactId: contact.id, queueId: otherQueue, status: 'open' });
    expect(res.json<Ticket>()).toMatchObject({ whatsappId: connId, userId: roles.admin.user.id });
  });

  it('answers 404 ERR_NO_DEF_WAPP_FOUND when the company has no default connection', async () => {
    const bare = await createCompanyWithAdmin(t.db);
    const admin = await login(t.app, bare.email, bare.password);
    const queue = await createQueue(t.db, bare.company.id);
    const contact = await createContact(t.db, bare.company.id);
    const res = await post(admin, { contactId: contact.id, queueId: queue.id, status: 'open' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_DEF_WAPP_FOUND' });
  });

  it('lets a plain user create only for themself and in their own queues (403)', async () => {
    const contact = await createContact(t.db, companyId);
    const forOther = await post(roles.user, { contactId: contact.id, queueId: ownQueue, whatsappId: connId, userId: roles.admin.user.id });
    expect(forOther.statusCode).toBe(403);
    const foreignQueue = await post(roles.user, { contactId: contact.id, queueId: otherQueue, whatsappId: connId, userId: roles.user.user.id });
    expect(foreignQueue.statusCode).toBe(403);
    expect(foreignQueue.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await ticketsOfContact(contact.id)).toEqual([]);
  });

  it('lets an admin open a ticket for another user of the company, not of another company', async () => {
    const colleague = await createPlainUser(t, companyId);
    const contact = await createContact(t.db, companyId);
    const foreign = await post(roles.admin, { contactId: contact.id, queueId: ownQueue, whatsappId: connId, userId: roles.otherAdmin.user.id });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
    const res = await post(roles.admin, { contactId: contact.id, queueId: ownQueue, whatsappId: connId, userId: colleague.user.id });
    expect(res.json<Ticket>()).toMatchObject({ userId: colleague.user.id, user: { name: colleague.user.name } });
  });

  it('needs a queue', async () => {
    const contact = await createContact(t.db, companyId);
    const res = await post(roles.admin, { contactId: contact.id, whatsappId: connId });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_QUEUE_REQUIRED' });
  });

  it('refuses a blocked contact', async () => {
    const contact = await createContact(t.db, companyId, { active: false });
    const res = await post(roles.admin, { contactId: contact.id, queueId: ownQueue, whatsappId: connId });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_CONTACT_BLOCKED' });
  });

  it('answers the live ticket as a JSON string in a 409 when the contact already has one', async () => {
    const contact = await createContact(t.db, companyId);
    const first = (await post(roles.user, { contactId: contact.id, queueId: ownQueue, whatsappId: connId, userId: roles.user.user.id })).json<Ticket>();
    const res = await post(roles.admin, { contactId: contact.id, queueId: otherQueue, whatsappId: connId, userId: roles.admin.user.id, status: 'open' });
    expect(res.statusCode).toBe(409);
    const body = res.json<{ error: string }>();
    expect(typeof body.error).toBe('string');
    const held = JSON.parse(body.error) as Ticket;
    expect(held).toMatchObject({ id: first.id, uuid: first.uuid, userId: roles.user.user.id, user: { name: roles.user.user.name }, queue: { id: ownQueue } });
    expect(held.queue!.name).toMatch(/^Vendas/);
    expect(await ticketsOfContact(contact.id)).toHaveLength(1);
  });

  it('two concurrent creates for one contact: one 200, one 409, one ticket', async () => {
    for (let round = 0; round < 3; round++) {
      const contact = await createContact(t.db, companyId);
      const payload = { contactId: contact.id, queueId: ownQueue, whatsappId: connId, status: 'open' };
      const [a, b] = await Promise.all([post(roles.user, payload), post(roles.admin, payload)]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      const winner = (a.statusCode === 200 ? a : b).json<Ticket>();
      const loser = JSON.parse((a.statusCode === 409 ? a : b).json<{ error: string }>().error) as Ticket;
      expect(loser.uuid).toBe(winner.uuid);
      expect(await ticketsOfContact(contact.id)).toHaveLength(1);
      expect(await logsOf(t.db, winner.id)).toHaveLength(1);
    }
  });

  it('checks every id against the caller’s company (404) and creates nothing', async () => {
    const mine = await createContact(t.db, companyId);
    const theirs = await createContact(t.db, roles.otherCompanyId);
    const theirQueue = await createQueue(t.db, roles.otherCompanyId);
    const theirConn = await createConnection(t.db, roles.otherCompanyId);
    const cases: [object, string][] = [
      [{ contactId: theirs.id, queueId: ownQueue, whatsappId: connId }, 'ERR_NO_CONTACT_FOUND'],
      [{ contactId: mine.id, queueId: theirQueue.id, whatsappId: connId }, 'ERR_NO_QUEUE_FOUND'],
      [{ contactId: mine.id, queueId: ownQueue, whatsappId: theirConn.id }, 'ERR_NO_WAPP_FOUND'],
    ];
    for (const [payload, error] of cases) {
      const res = await post(roles.admin, payload);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error });
    }
    expect(await ticketsOfContact(mine.id)).toEqual([]);
    expect(await ticketsOfContact(theirs.id)).toEqual([]);
    // The other company's admin cannot open one on our contact either.
    expect((await post(roles.otherAdmin, { contactId: mine.id, queueId: theirQueue.id, whatsappId: theirConn.id })).statusCode).toBe(404);
  });

  it('refuses invalid bodies with 400', async () => {
    for (const payload of [{}, { contactId: 'abc', queueId: ownQueue }, { contactId: 1, queueId: ownQueue, status: 'closed' }]) {
      const res = await post(roles.admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    expect(await ticketRow(t.db, 999_999)).toBeUndefined();
  });
});
