import { contactSchema, tagPageResponse, tagSchema, type ContactEventPayload, type ListEventPayload, type Tag, type TicketEventPayload } from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { contactTags, contacts, tags, ticketTags, tickets } from '../../db/schema/index.js';
import { bearer, collect, nextEvent, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createPlainUser, openSocket, type Roles, rolesSuite } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
let port: number;
const sockets = rolesSuite((suite) => ({ t, roles, port } = suite));

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

let seq = 0;
async function seedContact(companyId: number) {
  seq += 1;
  const [row] = await t.db
    .insert(contacts)
    .values({ companyId, name: `Contato ${seq}`, number: `55119${String(seq).padStart(8, '0')}` })
    .returning();
  return row!;
}
async function seedTag(companyId: number, name: string, kanban = 0) {
  const [row] = await t.db.insert(tags).values({ companyId, name, color: '#112233', kanban }).returning();
  return row!;
}
async function seedTicket(companyId: number, contactId: number, userId: number | null) {
  const [row] = await t.db.insert(tickets).values({ companyId, contactId, userId, status: 'open' }).returning();
  return row!;
}
const linksOf = async (contactId: number) =>
  (await t.db.select({ tagId: contactTags.tagId }).from(contactTags).where(eq(contactTags.contactId, contactId))).map((r) => r.tagId).sort();
const ticketTagIds = async (ticketId: number) =>
  (await t.db.select({ tagId: ticketTags.tagId }).from(ticketTags).where(eq(ticketTags.ticketId, ticketId))).map((r) => r.tagId).sort();

describe('tags', () => {
  it('creates a tag and announces it as company{id}-tag (no dash), to the company only', async () => {
    const mine = await openSocket(port, roles.user);
    const theirs = await openSocket(port, roles.otherAdmin);
    sockets.push(mine, theirs);
    const leaked = collect(theirs, `company${roles.otherCompanyId}-tag`);
    const dashed = collect(mine, `company-${roles.companyId}-tag`);
    const heard = nextEvent<ListEventPayload<Tag>>(mine, `company${roles.companyId}-tag`);

    const res = await call(roles.user.token, 'POST', '/tags', { name: 'Cliente novo', color: '#00ff00', kanban: 0 });
    expect(res.statusCode).toBe(200);
    const tag = tagSchema.parse(res.json());
    expect(tag).toMatchObject({ companyId: roles.companyId, name: 'Cliente novo', color: '#00ff00', kanban: 0 });
    expect(await heard).toEqual({ action: 'create', record: tag });
    await sleep(100);
    expect(leaked).toHaveLength(0);
    expect(dashed).toHaveLength(0);
  });

  it("refuses a short name with the form's message and a duplicate name (any case) with 409", async () => {
    const short = await call(roles.user.token, 'POST', '/tags', { name: 'ab', color: '#000000', kanban: 0 });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name', message: 'Mensagem muito curta' }] });
    const dup = await call(roles.user.token, 'POST', '/tags', { name: 'CLIENTE NOVO', color: '#000000', kanban: 0 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: 'ERR_TAG_ALREADY_EXISTS' });
    // A kanban lane may share a plain tag's name; another company may reuse it.
    expect((await call(roles.user.token, 'POST', '/tags', { name: 'Cliente novo', color: '#000000', kanban: 1 })).statusCode).toBe(200);
    expect((await call(roles.otherAdmin.token, 'POST', '/tags', { name: 'Cliente novo', color: '#000000' })).statusCode).toBe(200);
  });

  it('lists the company tags as a bare array, filtered by kanban', async () => {
    const all = (await call(roles.user.token, 'GET', `/tags/list?companyId=${roles.otherCompanyId}`)).json() as Tag[];
    expect(all.every((tag) => tag.companyId === roles.companyId)).toBe(true);
    expect(all.map((tag) => tag.kanban).sort()).toEqual([0, 1]);
    const lanes = (await call(roles.user.token, 'GET', '/tags/list?kanban=1')).json() as Tag[];
    expect(lanes.map((tag) => [tag.name, tag.kanban])).toEqual([['Cliente novo', 1]]);
    expect((await call(roles.user.token, 'GET', '/tags/list?kanban=2')).statusCode).toBe(400);
  });

  it('pages tags with their ticket counts, reads, edits and deletes one', async () => {
    const tag = await seedTag(roles.companyId, 'Contado');
    const contact = await seedContact(roles.companyId);
    for (let i = 0; i < 2; i++) {
      const ticket = await seedTicket(roles.companyId, contact.id, null);
      await t.db.insert(ticketTags).values({ ticketId: ticket.id, tagId: tag.id });
    }
    const page = tagPageResponse.parse((await call(roles.user.token, 'GET', '/tags?searchParam=contad')).json());
    expect(page).toMatchObject({ count: 1, hasMore: false, tags: [{ id: tag.id, ticketTags: 2 }] });

    expect((await call(roles.user.token, 'GET', `/tags/${tag.id}`)).json()).toMatchObject({ id: tag.id, name: 'Contado' });
    const socket = await openSocket(port, roles.user);
    sockets.push(socket);
    const updated = nextEvent<ListEventPayload<Tag>>(socket, `company${roles.companyId}-tag`);
    const put = await call(roles.user.token, 'PUT', `/tags/${tag.id}`, { name: 'Recontado', color: '#abcdef' });
    expect(put.json()).toMatchObject({ name: 'Recontado', color: '#abcdef' });
    expect(await updated).toMatchObject({ action: 'update', record: { id: tag.id, name: 'Recontado' } });
    expect((await call(roles.user.token, 'PUT', `/tags/${tag.id}`, { name: 'cliente NOVO' })).statusCode).toBe(409);

    const deleted = nextEvent<ListEventPayload<Tag>>(socket, `company${roles.companyId}-tag`);
    expect((await call(roles.user.token, 'DELETE', `/tags/${tag.id}`)).statusCode).toBe(200);
    expect(await deleted).toEqual({ action: 'delete', id: tag.id });
    expect(await t.db.select().from(ticketTags).where(eq(ticketTags.tagId, tag.id))).toHaveLength(0);
    expect((await call(roles.user.token, 'GET', `/tags/${tag.id}`)).json()).toEqual({ error: 'ERR_NO_TAG_FOUND' });
  });

  it('counts the contacts carrying each tag and narrows the page to one tag with tagId', async () => {
    const tag = await seedTag(roles.companyId, 'Com contatos');
    await seedTag(roles.companyId, 'Com contatos também');
    for (let i = 0; i < 3; i++) await t.db.insert(contactTags).values({ contactId: (await seedContact(roles.companyId)).id, tagId: tag.id });
    const page = tagPageResponse.parse((await call(roles.user.token, 'GET', `/tags?searchParam=com%20contatos&tagId=${tag.id}`)).json());
    expect(page).toMatchObject({ count: 1, hasMore: false, tags: [{ id: tag.id, contactTags: 3, ticketTags: 0 }] });
    const both = tagPageResponse.parse((await call(roles.user.token, 'GET', '/tags?searchParam=com%20contatos')).json());
    expect(both.tags.map((x) => x.contactTags)).toEqual([3, 0]);
  });

  it('pages kanban lanes with their settings and answers GET /tag/kanban/ with { lista }', async () => {
    const next = await seedTag(roles.companyId, 'Proposta enviada', 1);
    const res = await call(roles.user.token, 'POST', '/tags', {
      name: 'Primeiro contato',
      color: '#123456',
      kanban: 1,
      timeLane: 30,
      nextLaneId: next.id,
      rollbackLaneId: null,
      greetingMessageLane: 'Ainda tem interesse?',
    });
    expect(res.statusCode).toBe(200);
    const lane = tagSchema.parse(res.json());
    const page = tagPageResponse.parse((await call(roles.user.token, 'GET', '/tags?kanban=1&searchParam=primeiro')).json());
    expect(page.tags).toEqual([{ ...lane, ticketTags: 0, contactTags: 0 }]);
    expect(lane).toMatchObject({ timeLane: 30, nextLaneId: next.id, rollbackLaneId: null, greetingMessageLane: 'Ainda tem interesse?' });

    const lanes = await call(roles.user.token, 'GET', '/tag/kanban/');
    expect(lanes.statusCode).toBe(200);
    const names = (lanes.json() as { lista: Tag[] }).lista.map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(['Primeiro contato', 'Proposta enviada']));
    expect((lanes.json() as { lista: Tag[] }).lista.every((x) => x.kanban === 1 && x.companyId === roles.companyId)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/tag/kanban/' })).statusCode).toBe(401);
  });
});

describe('contact tags', () => {
  it('sync sets exactly the list, creating missing tags by name, and announces the contact', async () => {
    const contact = await seedContact(roles.companyId);
    const keep = await seedTag(roles.companyId, 'Manter');
    const drop = await seedTag(roles.companyId, 'Remover');
    await t.db.insert(contactTags).values([
      { contactId: contact.id, tagId: keep.id },
      { contactId: contact.id, tagId: drop.id },
    ]);
    const socket = await openSocket(port, roles.user);
    sockets.push(socket);
    const contactEvent = nextEvent<ContactEventPayload>(socket, `company-${roles.companyId}-contact`);
    const tagEvent = nextEvent<ListEventPayload<Tag>>(socket, `company${roles.companyId}-tag`);

    const res = await call(roles.user.token, 'POST', '/tags/sync', {
      contactId: contact.id,
      tags: [{ id: keep.id, name: 'Manter' }, { name: 'Nova etiqueta' }, { name: 'manter' }],
    });
    expect(res.statusCode).toBe(200);
    const synced = contactSchema.parse(res.json());
    const [created] = await t.db
      .select()
      .from(tags)
      .where(and(eq(tags.companyId, roles.companyId), eq(tags.name, 'Nova etiqueta')));
    expect(created).toBeDefined();
    expect(synced.tags.map((tag) => tag.name).sort()).toEqual(['Manter', 'Nova etiqueta']);
    expect(await linksOf(contact.id)).toEqual([keep.id, created!.id].sort());
    expect(await contactEvent).toMatchObject({ action: 'update', contact: { id: contact.id, tags: synced.tags } });
    expect(await tagEvent).toMatchObject({ action: 'create', record: { id: created!.id, name: 'Nova etiqueta' } });

    const contactTagsRes = await call(roles.user.token, 'GET', `/contactTags/${contact.id}`);
    expect(contactTagsRes.json()).toEqual({ tags: synced.tags });

    const emptied = await call(roles.user.token, 'POST', '/tags/sync', { contactId: contact.id, tags: [] });
    expect(emptied.json().tags).toEqual([]);
    expect(await linksOf(contact.id)).toEqual([]);
  });

  it("refuses a tag under 3 characters with 'Tag muito curta!' and leaves the links alone", async () => {
    const contact = await seedContact(roles.companyId);
    const tag = await seedTag(roles.companyId, 'Existente');
    await t.db.insert(contactTags).values({ contactId: contact.id, tagId: tag.id });
    const res = await call(roles.user.token, 'POST', '/tags/sync', { contactId: contact.id, tags: [{ name: 'ok' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'tags.0.name', message: 'Tag muito curta!' }] });
    expect(await linksOf(contact.id)).toEqual([tag.id]);
    expect(await t.db.select().from(tags).where(eq(tags.name, 'ok'))).toHaveLength(0);
  });

  it('removes one link and announces the contact', async () => {
    const contact = await seedContact(roles.companyId);
    const a = await seedTag(roles.companyId, 'Link A');
    const b = await seedTag(roles.companyId, 'Link B');
    await t.db.insert(contactTags).values([
      { contactId: contact.id, tagId: a.id },
      { contactId: contact.id, tagId: b.id },
    ]);
    const socket = await openSocket(port, roles.admin);
    sockets.push(socket);
    const heard = nextEvent<ContactEventPayload>(socket, `company-${roles.companyId}-contact`);
    expect((await call(roles.user.token, 'DELETE', `/tags-contacts/${a.id}/${contact.id}`)).statusCode).toBe(200);
    expect(await linksOf(contact.id)).toEqual([b.id]);
    expect(await heard).toMatchObject({ action: 'update', contact: { id: contact.id, tags: [{ id: b.id }] } });
  });
});

describe('ticket tags', () => {
  let stranger: LoggedIn;
  beforeAll(async () => {
    stranger = await createPlainUser(t, roles.companyId);
  });

  it('adds a tag to a ticket (idempotent), clears them, and announces the ticket each time', async () => {
    const contact = await seedContact(roles.companyId);
    const ticket = await seedTicket(roles.companyId, contact.id, roles.user.user.id);
    const lane = await seedTag(roles.companyId, 'Lane 1', 1);
    const socket = await openSocket(port, roles.user);
    sockets.push(socket);
    const added = nextEvent<TicketEventPayload>(socket, `company-${roles.companyId}-ticket`);
    const res = await call(roles.user.token, 'PUT', `/ticket-tags/${ticket.id}/${lane.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tags: [{ id: lane.id, name: 'Lane 1', color: '#112233' }] });
    expect(await added).toMatchObject({ action: 'update', ticket: { id: ticket.id, tags: [{ id: lane.id, name: 'Lane 1', color: '#112233' }] } });
    expect((await call(roles.user.token, 'PUT', `/ticket-tags/${ticket.id}/${lane.id}`)).statusCode).toBe(200);
    expect(await ticketTagIds(ticket.id)).toEqual([lane.id]);

    const cleared = nextEvent<TicketEventPayload>(socket, `company-${roles.companyId}-ticket`);
    const del = await call(roles.user.token, 'DELETE', `/ticket-tags/${ticket.id}`);
    expect(del.json()).toEqual({ tags: [] });
    expect(await cleared).toMatchObject({ action: 'update', ticket: { id: ticket.id, tags: [] } });
    expect(await ticketTagIds(ticket.id)).toEqual([]);
  });

  it('refuses a user who may not see the ticket (403) and changes nothing', async () => {
    const contact = await seedContact(roles.companyId);
    const ticket = await seedTicket(roles.companyId, contact.id, roles.user.user.id);
    const lane = await seedTag(roles.companyId, 'Lane privada', 1);
    await t.db.insert(ticketTags).values({ ticketId: ticket.id, tagId: lane.id });
    const other = await seedTag(roles.companyId, 'Lane outra', 1);
    const add = await call(stranger.token, 'PUT', `/ticket-tags/${ticket.id}/${other.id}`);
    expect(add.statusCode).toBe(403);
    expect(add.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await call(stranger.token, 'DELETE', `/ticket-tags/${ticket.id}`)).statusCode).toBe(403);
    expect(await ticketTagIds(ticket.id)).toEqual([lane.id]);
  });
});

describe('other companies', () => {
  it("answers 404 for another company's tag, contact or ticket on every endpoint and changes nothing", async () => {
    const theirContact = await seedContact(roles.otherCompanyId);
    const theirTag = await seedTag(roles.otherCompanyId, 'Deles');
    await t.db.insert(contactTags).values({ contactId: theirContact.id, tagId: theirTag.id });
    const theirTicket = await seedTicket(roles.otherCompanyId, theirContact.id, null);
    await t.db.insert(ticketTags).values({ ticketId: theirTicket.id, tagId: theirTag.id });
    const ourContact = await seedContact(roles.companyId);
    const ourTag = await seedTag(roles.companyId, 'Nossa');
    const ourTicket = await seedTicket(roles.companyId, ourContact.id, null);

    const attempts: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body: object | undefined, error: string][] = [
      ['GET', `/tags/${theirTag.id}`, undefined, 'ERR_NO_TAG_FOUND'],
      ['PUT', `/tags/${theirTag.id}`, { name: 'Roubada' }, 'ERR_NO_TAG_FOUND'],
      ['DELETE', `/tags/${theirTag.id}`, undefined, 'ERR_NO_TAG_FOUND'],
      ['POST', '/tags/sync', { contactId: theirContact.id, tags: [] }, 'ERR_NO_CONTACT_FOUND'],
      ['POST', '/tags/sync', { contactId: ourContact.id, tags: [{ id: theirTag.id, name: 'Deles' }] }, 'ERR_NO_TAG_FOUND'],
      ['GET', `/contactTags/${theirContact.id}`, undefined, 'ERR_NO_CONTACT_FOUND'],
      ['DELETE', `/tags-contacts/${theirTag.id}/${theirContact.id}`, undefined, 'ERR_NO_CONTACT_FOUND'],
      ['DELETE', `/tags-contacts/${theirTag.id}/${ourContact.id}`, undefined, 'ERR_NO_TAG_FOUND'],
      ['PUT', `/ticket-tags/${theirTicket.id}/${ourTag.id}`, undefined, 'ERR_NO_TICKET_FOUND'],
      ['PUT', `/ticket-tags/${ourTicket.id}/${theirTag.id}`, undefined, 'ERR_NO_TAG_FOUND'],
      ['DELETE', `/ticket-tags/${theirTicket.id}`, undefined, 'ERR_NO_TICKET_FOUND'],
      ['POST', '/tags', { name: 'Lane x', nextLaneId: theirTag.id }, 'ERR_NO_TAG_FOUND'],
    ];
    for (const [method, url, body, error] of attempts) {
      const res = await call(roles.admin.token, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json(), `${method} ${url}`).toEqual({ error });
    }
    const list = (await call(roles.admin.token, 'GET', '/tags/list')).json() as Tag[];
    expect(list.some((tag) => tag.id === theirTag.id)).toBe(false);
    const narrowed = tagPageResponse.parse((await call(roles.admin.token, 'GET', `/tags?tagId=${theirTag.id}`)).json());
    expect(narrowed).toEqual({ tags: [], count: 0, hasMore: false });
    await seedTag(roles.otherCompanyId, 'Raia deles', 1);
    const lanes = (await call(roles.admin.token, 'GET', '/tag/kanban')).json() as { lista: Tag[] };
    expect(lanes.lista.some((tag) => tag.companyId !== roles.companyId)).toBe(false);
    expect((await t.db.select().from(tags).where(eq(tags.id, theirTag.id)))[0]?.name).toBe('Deles');
    expect(await linksOf(theirContact.id)).toEqual([theirTag.id]);
    expect(await ticketTagIds(theirTicket.id)).toEqual([theirTag.id]);
    expect(await ticketTagIds(ourTicket.id)).toEqual([]);
    expect(await linksOf(ourContact.id)).toEqual([]);
  });
});
