import {
  contactListItemPageResponse,
  contactListItemSchema,
  contactListPageResponse,
  contactListSchema,
  type ContactList,
  type ContactListItem,
  type ListEventPayload,
} from '@balcao/contracts';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactListItems, whatsapps } from '../../db/schema/index.js';
import { createConnection } from '../../../test/connections.js';
import { fixture } from '../../../test/fixtures.js';
import { fakeSocketFactory } from '../../../test/fakes/wa-socket.js';
import { bearer, collect, createTestApp, nextEvent, sleep, type TestApp } from '../../../test/helpers.js';
import { multipart } from '../../../test/multipart.js';
import { listen, openSocket, setupRoles, type Roles } from '../../../test/roles.js';
import { checkUncheckedNumbers } from './validity.js';

let t: TestApp;
let roles: Roles;
let port: number;
const factory = fakeSocketFactory();
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' }, { channels: { makeWaSocket: factory } });
  factory.settleWith(() => t.app.ctx.channels.whatsapp.settled());
  roles = await setupRoles(t);
  port = await listen(t);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
const newList = async (name: string, token = roles.admin.token) => contactListSchema.parse((await call(token, 'POST', '/contact-lists', { name })).json());
const upload = (token: string, listId: number, data: Buffer, name = 'lista.xlsx') => {
  const form = multipart({}, { field: 'file', name, type: 'application/octet-stream', data });
  return t.app.inject({ method: 'POST', url: `/contact-lists/${listId}/upload`, headers: { ...bearer(token), ...form.headers }, payload: form.payload });
};
async function xlsx(rows: string[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Contatos');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('contact lists', () => {
  it('creates, renames, lists and deletes a list, announcing each change to the admins of the company only', async () => {
    const admin = await openSocket(port, roles.admin);
    const user = await openSocket(port, roles.user);
    const other = await openSocket(port, roles.otherAdmin);
    sockets.push(admin, user, other);
    const event = `company-${roles.companyId}-ContactList`;
    const userHeard = collect(user, event);
    const otherHeard = collect(other, `company-${roles.otherCompanyId}-ContactList`);

    const created = nextEvent<ListEventPayload<ContactList>>(admin, event);
    const list = await newList('Clientes VIP');
    expect(list).toMatchObject({ companyId: roles.companyId, name: 'Clientes VIP', contactsCount: 0 });
    expect(await created).toEqual({ action: 'create', record: list });

    const renamed = nextEvent<ListEventPayload<ContactList>>(admin, event);
    const put = await call(roles.admin.token, 'PUT', `/contact-lists/${list.id}`, { name: 'Clientes Ouro' });
    expect(put.statusCode).toBe(200);
    expect((await renamed) as { record: ContactList }).toMatchObject({ action: 'update', record: { id: list.id, name: 'Clientes Ouro' } });

    const page = contactListPageResponse.parse((await call(roles.admin.token, 'GET', '/contact-lists?searchParam=ouro')).json());
    expect(page.records.map((r) => r.id)).toEqual([list.id]);
    const all = (await call(roles.admin.token, 'GET', '/contact-lists/list')).json() as ContactList[];
    expect(all.map((r) => r.name)).toContain('Clientes Ouro');

    const deleted = nextEvent<ListEventPayload<ContactList>>(admin, event);
    expect((await call(roles.admin.token, 'DELETE', `/contact-lists/${list.id}`)).statusCode).toBe(200);
    expect(await deleted).toEqual({ action: 'delete', id: list.id });
    expect((await call(roles.admin.token, 'GET', `/contact-lists/${list.id}`)).json()).toEqual({ error: 'ERR_NO_CONTACT_LIST_FOUND' });
    await sleep(100);
    expect(userHeard).toEqual([]);
    expect(otherHeard).toEqual([]);
  });

  it('validates the name (2 to 50) and refuses plain users and callers without a session', async () => {
    const short = await call(roles.admin.token, 'POST', '/contact-lists', { name: 'A' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name', message: 'Too Short!' }] });
    expect((await call(roles.admin.token, 'POST', '/contact-lists', { name: 'x'.repeat(51) })).statusCode).toBe(400);
    expect((await call(roles.user.token, 'POST', '/contact-lists', { name: 'Lista' })).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await call(roles.user.token, 'GET', '/contact-lists')).statusCode).toBe(403);
    expect((await call(roles.user.token, 'GET', '/contact-list-items?contactListId=1')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/contact-lists' })).statusCode).toBe(401);
  });
});

describe('contact list items', () => {
  it('adds, edits and deletes items with a normalised number; the list count follows; numbers are unique per list', async () => {
    const list = await newList('Itens');
    const admin = await openSocket(port, roles.admin);
    sockets.push(admin);
    const heard = nextEvent<ListEventPayload<ContactListItem>>(admin, `company-${roles.companyId}-ContactListItem`);
    const res = await call(roles.admin.token, 'POST', '/contact-list-items', {
      name: 'Maria Souza',
      number: '(11) 98765-4321',
      email: 'Maria@Example.com',
      contactListId: list.id,
      companyId: roles.otherCompanyId,
    });
    expect(res.statusCode).toBe(200);
    const item = contactListItemSchema.parse(res.json());
    expect(item).toMatchObject({ companyId: roles.companyId, contactListId: list.id, number: '5511987654321', email: 'maria@example.com', isWhatsappValid: null });
    expect(await heard).toEqual({ action: 'create', record: item });
    expect(contactListSchema.parse((await call(roles.admin.token, 'GET', `/contact-lists/${list.id}`)).json()).contactsCount).toBe(1);

    const twice = await call(roles.admin.token, 'POST', '/contact-list-items', { name: 'Outra Maria', number: '+55 11 98765-4321', contactListId: list.id });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ error: 'ERR_CONTACT_LIST_ITEM_EXISTS' });

    const edited = await call(roles.admin.token, 'PUT', `/contact-list-items/${item.id}`, { name: 'Maria S.', number: '5521998765432', email: '' });
    expect(edited.json()).toMatchObject({ name: 'Maria S.', number: '5521998765432', email: '' });

    const page = contactListItemPageResponse.parse((await call(roles.admin.token, 'GET', `/contact-list-items?contactListId=${list.id}&searchParam=98765`)).json());
    expect(page.contacts.map((c) => c.id)).toEqual([item.id]);

    expect((await call(roles.admin.token, 'DELETE', `/contact-list-items/${item.id}`)).statusCode).toBe(200);
    expect(contactListSchema.parse((await call(roles.admin.token, 'GET', `/contact-lists/${list.id}`)).json()).contactsCount).toBe(0);
  });

  it('validates name, number and e-mail', async () => {
    const list = await newList('Validação');
    const bad = async (body: object) => (await call(roles.admin.token, 'POST', '/contact-list-items', { contactListId: list.id, ...body })).json();
    expect(await bad({ name: 'M', number: '5511987654321' })).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name', message: 'Too Short!' }] });
    expect(await bad({ name: 'Maria', number: '1234567' })).toMatchObject({ issues: [{ path: 'number', message: 'Too Short!' }] });
    expect(await bad({ name: 'Maria', number: 'abcdefghij' })).toMatchObject({ issues: [{ path: 'number', message: 'Invalid number' }] });
    expect(await bad({ name: 'Maria', number: '5511987654321', email: 'nope' })).toMatchObject({ issues: [{ path: 'email', message: 'Invalid email' }] });
    expect(await t.db.select().from(contactListItems).where(eq(contactListItems.contactListId, list.id))).toEqual([]);
  });

  it("never reads nor writes another company's lists and items", async () => {
    const list = await newList('Alheia');
    const item = contactListItemSchema.parse(
      (await call(roles.admin.token, 'POST', '/contact-list-items', { name: 'João', number: '5511912340000', contactListId: list.id })).json(),
    );
    const other = roles.otherAdmin.token;
    const notFound = [
      await call(other, 'GET', `/contact-lists/${list.id}`),
      await call(other, 'PUT', `/contact-lists/${list.id}`, { name: 'Roubada' }),
      await call(other, 'DELETE', `/contact-lists/${list.id}`),
      await upload(other, list.id, await xlsx([['nome', 'numero'], ['Intruso', '5511900000000']])),
      await call(other, 'GET', `/contact-list-items?contactListId=${list.id}`),
      await call(other, 'POST', '/contact-list-items', { name: 'Intruso', number: '5511900000000', contactListId: list.id }),
    ];
    for (const res of notFound) expect(res.json()).toEqual({ error: 'ERR_NO_CONTACT_LIST_FOUND' });
    for (const res of [
      await call(other, 'GET', `/contact-list-items/${item.id}`),
      await call(other, 'PUT', `/contact-list-items/${item.id}`, { name: 'Intruso', number: '5511900000000' }),
      await call(other, 'DELETE', `/contact-list-items/${item.id}`),
    ])
      expect(res.json()).toEqual({ error: 'ERR_NO_CONTACT_LIST_ITEM_FOUND' });
    expect((await call(other, 'GET', '/contact-lists')).json()).toMatchObject({ records: [] });
    const [kept] = await t.db.select().from(contactListItems).where(eq(contactListItems.id, item.id));
    expect(kept).toMatchObject({ name: 'João', number: '5511912340000' });
  });
});

describe('POST /contact-lists/{id}/upload', () => {
  it('imports an .xlsx by its header, updating numbers already on the list and ignoring rows without name or number', async () => {
    const list = await newList('Importada');
    await call(roles.admin.token, 'POST', '/contact-list-items', { name: 'Antigo', number: '5511911110000', contactListId: list.id });
    const data = await xlsx([
      ['Nome', 'Número', 'E-mail'],
      ['Ana', '11 91111-0000', 'ana@example.com'],
      ['Bruno', '+55 21 99999-0000', 'sem-email'],
      ['', '5511922220000', ''],
      ['Carla', 'abc', ''],
      ['Davi', '5531988887777', 'davi@example.com'],
    ]);
    const res = await upload(roles.admin.token, list.id, data);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created: 2, updated: 1, ignored: 2, total: 5 });
    const rows = await t.db.select().from(contactListItems).where(eq(contactListItems.contactListId, list.id));
    expect(rows.map((r) => [r.name, r.number, r.email]).sort()).toEqual([
      ['Ana', '5511911110000', 'ana@example.com'],
      ['Bruno', '5521999990000', ''],
      ['Davi', '5531988887777', 'davi@example.com'],
    ]);
  });

  it('imports nothing from a bad file or one without name and number columns', async () => {
    const list = await newList('Arquivo ruim');
    const broken = await upload(roles.admin.token, list.id, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 1, 2, 3, 4, 5]));
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ error: 'ERR_INVALID_SPREADSHEET' });
    const headerless = await upload(roles.admin.token, list.id, await xlsx([['coluna', 'outra'], ['Ana', '5511911110000']]));
    expect(headerless.statusCode).toBe(400);
    expect(await t.db.select().from(contactListItems).where(eq(contactListItems.contactListId, list.id))).toEqual([]);
  });
});

describe('isWhatsappValid', () => {
  it('stays unknown without a connected session, then is checked through the connected one', async () => {
    const list = await newList('Validade');
    await upload(roles.admin.token, list.id, Buffer.from('nome;numero\nAna;5511933330000\nBia;5511944440000\n'), 'lista.csv');
    expect(await checkUncheckedNumbers(t.app.ctx, roles.companyId)).toBe(0);
    const conn = await createConnection(t.db, roles.companyId, { channel: 'whatsapp', status: 'OPENING' });
    await t.app.ctx.channels.whatsapp.start(conn);
    const sock = factory.last();
    await sock.emit('connection.update', fixture('baileys/connection-update-open.json'));
    sock.notOnWhatsApp.add('5511944440000');
    await t.db.update(whatsapps).set({ status: 'CONNECTED' }).where(eq(whatsapps.id, conn.id));
    expect(await checkUncheckedNumbers(t.app.ctx, roles.companyId)).toBeGreaterThanOrEqual(2);
    const rows = await t.db.select().from(contactListItems).where(eq(contactListItems.contactListId, list.id));
    expect(Object.fromEntries(rows.map((r) => [r.number, r.isWhatsappValid]))).toEqual({ '5511933330000': true, '5511944440000': false });
  });
});
