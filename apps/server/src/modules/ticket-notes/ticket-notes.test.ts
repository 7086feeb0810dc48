import { ticketNoteSchema, type TicketNote } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, ticketNotes, tickets } from '../../db/schema/index.js';
import { bearer, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createAdminTestApp, createPlainUser, setupRoles, type Roles } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
let colleague: LoggedIn;
beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
  // Sees every ticket of the company (allTicket), so may read and write notes on the user's tickets.
  colleague = await createPlainUser(t, roles.companyId, { allTicket: 'enabled' });
});
afterAll(async () => {
  await t.close();
});

const call = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

let seq = 0;
async function seedTicket(companyId: number, userId: number | null) {
  seq += 1;
  const [contact] = await t.db
    .insert(contacts)
    .values({ companyId, name: `Nota ${seq}`, number: `55219${String(seq).padStart(8, '0')}` })
    .returning();
  const [ticket] = await t.db.insert(tickets).values({ companyId, contactId: contact!.id, userId, status: 'open' }).returning();
  return { ticket: ticket!, contact: contact! };
}
const notesOf = async (ticketId: number) => t.db.select().from(ticketNotes).where(eq(ticketNotes.ticketId, ticketId));

describe('ticket notes', () => {
  it('adds notes and lists them newest first with the author name', async () => {
    const { ticket, contact } = await seedTicket(roles.companyId, roles.user.user.id);
    const first = await call(roles.user.token, 'POST', '/ticket-notes', { note: 'Cliente pediu retorno', ticketId: ticket.id, contactId: contact.id });
    expect(first.statusCode).toBe(200);
    const note = ticketNoteSchema.parse(first.json());
    expect(note).toMatchObject({
      note: 'Cliente pediu retorno',
      ticketId: ticket.id,
      contactId: contact.id,
      userId: roles.user.user.id,
      user: { id: roles.user.user.id, name: roles.user.user.name },
    });
    await sleep(5);
    await call(colleague.token, 'POST', '/ticket-notes', { note: 'Retornei', ticketId: String(ticket.id), contactId: String(contact.id) });

    const res = await call(roles.user.token, 'GET', `/ticket-notes/list?ticketId=${ticket.id}&contactId=${contact.id}`);
    expect(res.statusCode).toBe(200);
    const list = res.json() as TicketNote[];
    expect(list.map((n) => [n.note, n.user?.name])).toEqual([
      ['Retornei', colleague.user.name],
      ['Cliente pediu retorno', roles.user.user.name],
    ]);
  });

  it('requires a note of at least 2 characters', async () => {
    const { ticket, contact } = await seedTicket(roles.companyId, roles.user.user.id);
    for (const note of ['', ' ', 'x']) {
      const res = await call(roles.user.token, 'POST', '/ticket-notes', { note, ticketId: ticket.id, contactId: contact.id });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    expect((await call(roles.user.token, 'POST', '/ticket-notes', { ticketId: ticket.id, contactId: contact.id })).statusCode).toBe(400);
    expect(await notesOf(ticket.id)).toHaveLength(0);
  });

  it("refuses a contact that is not the ticket's", async () => {
    const { ticket } = await seedTicket(roles.companyId, roles.user.user.id);
    const { contact: another } = await seedTicket(roles.companyId, roles.user.user.id);
    const res = await call(roles.user.token, 'POST', '/ticket-notes', { note: 'Errado', ticketId: ticket.id, contactId: another.id });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
    expect(await notesOf(ticket.id)).toHaveLength(0);
  });

  it('lets only the author or an admin delete a note', async () => {
    const { ticket, contact } = await seedTicket(roles.companyId, roles.user.user.id);
    const add = async (by: LoggedIn) =>
      ticketNoteSchema.parse((await call(by.token, 'POST', '/ticket-notes', { note: 'Apagar?', ticketId: ticket.id, contactId: contact.id })).json());
    const mine = await add(roles.user);
    const denied = await call(colleague.token, 'DELETE', `/ticket-notes/${mine.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await call(roles.user.token, 'DELETE', `/ticket-notes/${mine.id}`)).statusCode).toBe(200);
    const theirs = await add(colleague);
    expect((await call(roles.admin.token, 'DELETE', `/ticket-notes/${theirs.id}`)).statusCode).toBe(200);
    expect(await notesOf(ticket.id)).toHaveLength(0);
    expect((await call(roles.admin.token, 'DELETE', `/ticket-notes/${theirs.id}`)).json()).toEqual({ error: 'ERR_NO_NOTE_FOUND' });
  });

  it('refuses a user who may not see the ticket (403), for adding and listing', async () => {
    const { ticket, contact } = await seedTicket(roles.companyId, colleague.user.id);
    const add = await call(roles.user.token, 'POST', '/ticket-notes', { note: 'Intruso', ticketId: ticket.id, contactId: contact.id });
    expect(add.statusCode).toBe(403);
    expect(add.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await call(roles.user.token, 'GET', `/ticket-notes/list?ticketId=${ticket.id}&contactId=${contact.id}`)).statusCode).toBe(403);
    expect(await notesOf(ticket.id)).toHaveLength(0);
  });

  it("answers 404 for another company's ticket, contact or note and changes nothing", async () => {
    const theirs = await seedTicket(roles.otherCompanyId, null);
    const [theirNote] = await t.db
      .insert(ticketNotes)
      .values({ companyId: roles.otherCompanyId, note: 'Deles', ticketId: theirs.ticket.id, contactId: theirs.contact.id })
      .returning();
    const ours = await seedTicket(roles.companyId, null);

    const attempts: [method: 'GET' | 'POST' | 'DELETE', url: string, body: object | undefined, error: string][] = [
      ['POST', '/ticket-notes', { note: 'Invasão', ticketId: theirs.ticket.id, contactId: theirs.contact.id }, 'ERR_NO_TICKET_FOUND'],
      ['POST', '/ticket-notes', { note: 'Invasão', ticketId: ours.ticket.id, contactId: theirs.contact.id }, 'ERR_NO_CONTACT_FOUND'],
      ['GET', `/ticket-notes/list?ticketId=${theirs.ticket.id}&contactId=${theirs.contact.id}`, undefined, 'ERR_NO_TICKET_FOUND'],
      ['DELETE', `/ticket-notes/${theirNote!.id}`, undefined, 'ERR_NO_NOTE_FOUND'],
    ];
    for (const [method, url, body, error] of attempts) {
      const res = await call(roles.admin.token, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ error });
    }
    expect(await notesOf(theirs.ticket.id)).toHaveLength(1);
    expect(await notesOf(ours.ticket.id)).toHaveLength(0);
  });
});
