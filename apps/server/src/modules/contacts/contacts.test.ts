import { CONTACT_COUNT_CAP, contactListResponse, contactSchema, type Contact, type ContactEventPayload, type TicketEventPayload } from '@balcao/contracts';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { companySettings, contactCustomFields, contactTags, contacts, tags, tickets } from '../../db/schema/index.js';
import { bearer, collect, nextEvent, sleep, type TestApp } from '../../../test/helpers.js';
import { openSocket, type Roles, rolesSuite } from '../../../test/roles.js';

let t: TestApp;
let roles: Roles;
let port: number;
const sockets = rolesSuite((suite) => ({ t, roles, port } = suite));

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

async function seedContact(companyId: number, fields: Partial<typeof contacts.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(contacts)
    .values({ companyId, name: 'Seed', number: String(5500000000000 + Math.floor(Math.random() * 1e9)), ...fields })
    .returning();
  if (!row) throw new Error('no contact');
  return row;
}

async function setHideNumber(companyId: number, on: boolean) {
  await t.db
    .update(companySettings)
    .set({ lgpdHideNumber: on ? 'enabled' : 'disabled' })
    .where(eq(companySettings.companyId, companyId));
}

describe('creating contacts', () => {
  it('creates a WhatsApp contact with the number as digits and tells the company, not other companies', async () => {
    const mine = await openSocket(port, roles.user);
    const theirs = await openSocket(port, roles.otherAdmin);
    sockets.push(mine, theirs);
    const leaked = collect(theirs, `company-${roles.otherCompanyId}-contact`);
    const heard = nextEvent<ContactEventPayload>(mine, `company-${roles.companyId}-contact`);

    const res = await call(roles.user.token, 'POST', '/contacts', {
      name: 'Maria Souza',
      number: '+55 (11) 98765-4321',
      email: 'Maria@Example.com',
      companyId: roles.otherCompanyId,
      disableBot: true,
    });
    expect(res.statusCode).toBe(200);
    const contact = contactSchema.parse(res.json());
    expect(contact).toMatchObject({
      name: 'Maria Souza',
      number: '5511987654321',
      email: 'maria@example.com',
      channel: 'whatsapp',
      isGroup: false,
      active: true,
      disableBot: true,
      tags: [],
      extraInfo: [],
    });
    const [row] = await t.db.select().from(contacts).where(eq(contacts.id, contact.id));
    expect(row).toMatchObject({ companyId: roles.companyId, remoteJid: '5511987654321@s.whatsapp.net' });
    expect(await heard).toEqual({ action: 'create', contact });
    await sleep(100);
    expect(leaked).toHaveLength(0);
  });

  it("validates with the form's messages: name 2–250, number 8–50, email valid or empty", async () => {
    const res = await call(roles.user.token, 'POST', '/contacts', { name: 'A', number: '1234', email: 'not-an-email' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_VALIDATION');
    expect(res.json().issues).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Too Short!' },
        { path: 'number', message: 'Too Short!' },
        { path: 'email', message: 'Invalid email' },
      ]),
    );
    expect((await call(roles.user.token, 'POST', '/contacts', { name: 'x'.repeat(251), number: '5511900000001' })).statusCode).toBe(400);
    expect((await call(roles.user.token, 'POST', '/contacts', { name: 'Ana', number: '1'.repeat(51) })).statusCode).toBe(400);
    const letters = await call(roles.user.token, 'POST', '/contacts', { name: 'Ana', number: 'abcdefghij' });
    expect(letters.statusCode).toBe(400);
    expect(letters.json().error).toBe('ERR_VALIDATION');
    // 51 characters of name are accepted (the contacts-page dialog allows up to 250).
    expect((await call(roles.user.token, 'POST', '/contacts', { name: 'y'.repeat(51), number: '5511900000002', email: '' })).statusCode).toBe(200);
  });

  it('refuses a number the company already has, however it is typed; another company may have it', async () => {
    const res = await call(roles.admin.token, 'POST', '/contacts', { name: 'Outra Maria', number: '5511987654321' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_DUPLICATED_CONTACT' });
    expect((await call(roles.admin.token, 'POST', '/contacts', { name: 'Outra', number: '55 11 98765 4321' })).json()).toEqual({
      error: 'ERR_DUPLICATED_CONTACT',
    });
    expect((await call(roles.otherAdmin.token, 'POST', '/contacts', { name: 'Maria', number: '5511987654321' })).statusCode).toBe(200);
  });
});

describe('listing contacts', () => {
  let vip: typeof tags.$inferSelect;
  let tagged: Contact;
  beforeAll(async () => {
    const [tag] = await t.db.insert(tags).values({ companyId: roles.companyId, name: 'VIP', color: '#ff0000' }).returning();
    vip = tag!;
    for (let i = 0; i < 24; i++) await seedContact(roles.companyId, { name: `Paged ${String(i).padStart(2, '0')}`, number: `5521900000${String(i).padStart(3, '0')}` });
    const row = await seedContact(roles.companyId, { name: 'Zélia Tagged', number: '5531912345678', email: 'zelia@shop.com' });
    await t.db.insert(contactTags).values({ contactId: row.id, tagId: vip.id });
    await t.db.insert(contactCustomFields).values({ companyId: roles.companyId, contactId: row.id, name: 'valor', value: '10.50' });
    await seedContact(roles.companyId, { name: 'Grupo Loja', number: '120363041234567890', isGroup: true });
    await seedContact(roles.companyId, { name: 'Fã do Instagram', number: '17841400000000001', channel: 'instagram' });
    await seedContact(roles.otherCompanyId, { name: 'Paged elsewhere', number: '5521999999999' });
    tagged = contactSchema.parse((await call(roles.user.token, 'GET', `/contacts/${row.id}`)).json());
  });

  it('pages 20 by name with count and hasMore, only the caller company', async () => {
    const first = contactListResponse.parse((await call(roles.user.token, 'GET', '/contacts?searchParam=paged')).json());
    expect(first.count).toBe(24);
    expect(first.hasMore).toBe(true);
    expect(first.contacts).toHaveLength(20);
    expect(first.contacts[0]?.name).toBe('Paged 00');
    const second = contactListResponse.parse((await call(roles.user.token, 'GET', '/contacts?searchParam=PAGED&pageNumber=2')).json());
    expect(second.contacts.map((c) => c.name)).toEqual(['Paged 20', 'Paged 21', 'Paged 22', 'Paged 23']);
    expect(second.hasMore).toBe(false);
  });

  it('beyond CONTACT_COUNT_CAP matches, counts up to the cap and still pages by name (the common-term walk)', async () => {
    await t.db.insert(contacts).values(
      Array.from({ length: CONTACT_COUNT_CAP + 5 }, (_, i) => ({
        companyId: roles.companyId,
        // Names out of insertion order, so the page must be sorted, not the probe's first rows.
        name: `Muitos ${String((i * 7919) % (CONTACT_COUNT_CAP + 5)).padStart(4, '0')}`,
        number: `5547${String(800000000 + i)}`,
      })),
    );
    const first = contactListResponse.parse((await call(roles.user.token, 'GET', '/contacts?searchParam=MUITOS')).json());
    expect(first.count).toBe(CONTACT_COUNT_CAP);
    expect(first.hasMore).toBe(true);
    expect(first.contacts.map((c) => c.name)).toEqual(Array.from({ length: 20 }, (_, i) => `Muitos ${String(i).padStart(4, '0')}`));
    // The last page, past the cap: its rows, no more after it, and a count that covers what was read.
    const last = contactListResponse.parse((await call(roles.user.token, 'GET', '/contacts?searchParam=muitos&pageNumber=51')).json());
    expect(last.contacts.map((c) => c.name)).toEqual(['Muitos 1000', 'Muitos 1001', 'Muitos 1002', 'Muitos 1003', 'Muitos 1004']);
    expect(last.hasMore).toBe(false);
    expect(last.count).toBe(CONTACT_COUNT_CAP + 5);
    // Another company's search sees none of them.
    expect(contactListResponse.parse((await call(roles.otherAdmin.token, 'GET', '/contacts?searchParam=muitos')).json()).count).toBe(0);
  });

  it('a one-word term (the word index): substrings of a word of name or e-mail, merged in name order, each contact once, kept on rename and delete', async () => {
    const names = ['Vera Oliveiras', 'Ana Oliveira Oliveirinha', 'Bruno Coliveiro', 'Carla Souza'];
    const seeded = [];
    for (const [i, name] of names.entries()) seeded.push(await seedContact(roles.companyId, { name, number: `5548910000${i}`, email: i === 3 ? 'carla.oliveira@mail.test' : '' }));
    await seedContact(roles.otherCompanyId, { name: 'Other Oliveira', number: '5548910009' });
    const search = async (term: string, token = roles.user.token) => contactListResponse.parse((await call(token, 'GET', `/contacts?searchParam=${encodeURIComponent(term)}`)).json());
    // "liveir" is inside four different words (one contact holds two of them, one holds it only in the e-mail).
    const found = await search('LiVeIr');
    expect(found.contacts.map((c) => c.name)).toEqual(['Ana Oliveira Oliveirinha', 'Bruno Coliveiro', 'Carla Souza', 'Vera Oliveiras']);
    expect(found.count).toBe(4);
    expect(found.hasMore).toBe(false);
    // A rename moves the contact in the index: found by its new word, no longer by the old one.
    expect((await call(roles.admin.token, 'PUT', `/contacts/${seeded[2]!.id}`, { name: 'Bruno Pereira', number: seeded[2]!.number })).statusCode).toBe(200);
    expect((await search('coliveiro')).count).toBe(0);
    expect((await search('pereira')).contacts.map((c) => c.id)).toEqual([seeded[2]!.id]);
    expect((await call(roles.admin.token, 'DELETE', `/contacts/${seeded[0]!.id}`)).statusCode).toBe(200);
    expect((await search('liveir')).contacts.map((c) => c.name)).toEqual(['Ana Oliveira Oliveirinha', 'Carla Souza']);
    expect((await search('liveir', roles.otherAdmin.token)).contacts.map((c) => c.name)).toEqual(['Other Oliveira']);
  });

  it('a term with 4 or more digits (the digit-gram index): the digits of name, number or e-mail, in name order, per company', async () => {
    const zeca = await seedContact(roles.companyId, { name: 'Zeca 8642 Souza', number: '5541900007531' });
    const bia = await seedContact(roles.companyId, { name: 'Bia', number: '5541900007532', email: 'bia86420@mail.test' });
    const ana = await seedContact(roles.companyId, { name: 'Ana', number: '5541986421111' });
    // The term's digits split between two fields: no field holds them.
    await seedContact(roles.companyId, { name: 'Caio 86', number: '5541900007533', email: '42@mail.test' });
    await seedContact(roles.otherCompanyId, { name: 'Outra 8642', number: '5541986429999' });
    const search = async (term: string, token = roles.user.token) => contactListResponse.parse((await call(token, 'GET', `/contacts?searchParam=${encodeURIComponent(term)}`)).json());
    const found = await search('8642');
    expect(found.contacts.map((c) => c.id)).toEqual([ana.id, bia.id, zeca.id]);
    expect(found.count).toBe(3);
    // The term's digits alone also find a number holding them (Ana's), as they always have.
    expect((await search('ZECA 8642')).contacts.map((c) => c.id)).toEqual([ana.id, zeca.id]);
    expect((await search('8642 souza')).contacts.map((c) => c.id)).toEqual([ana.id, zeca.id]);
    expect((await search('(41) 98642')).contacts.map((c) => c.id)).toEqual([ana.id]);
    expect((await search('a86420@')).contacts.map((c) => c.id)).toEqual([bia.id]);
    expect((await search('zeca 86420')).count).toBe(0);
    expect((await search('8642', roles.otherAdmin.token)).contacts.map((c) => c.name)).toEqual(['Outra 8642']);
    // A rename leaves the index with the new digits.
    expect((await call(roles.admin.token, 'PUT', `/contacts/${zeca.id}`, { name: 'Zeca 9753 Souza', number: zeca.number })).statusCode).toBe(200);
    expect((await search('8642')).contacts.map((c) => c.id)).toEqual([ana.id, bia.id]);
    expect((await search('9753 sou')).contacts.map((c) => c.id)).toEqual([zeca.id]);
  });

  it('a term with digits matching more than the cap: the page in name order, past the walked window too', async () => {
    // 6,100 contacts sort before the matches, so the walk of the name index finds none and the matches are sorted.
    await t.db.execute(sql`insert into contacts (company_id, name, number)
      select ${roles.companyId}, 'Aaa ' || lpad(i::text, 5, '0'), '55419700' || lpad(i::text, 5, '0') from generate_series(1, 6100) i`);
    await t.db.execute(sql`insert into contacts (company_id, name, number)
      select ${roles.companyId}, 'Zzz ' || lpad((i * 7 % 1030)::text, 4, '0'), '5541975' || lpad(i::text, 6, '0') from generate_series(0, 1029) i`);
    const page = contactListResponse.parse((await call(roles.user.token, 'GET', '/contacts?searchParam=41975&pageNumber=2')).json());
    expect(page.count).toBe(CONTACT_COUNT_CAP);
    expect(page.hasMore).toBe(true);
    expect(page.contacts.map((c) => c.name)).toEqual(Array.from({ length: 20 }, (_, i) => `Zzz ${String(20 + i).padStart(4, '0')}`));
  });

  it('searches name, number (typed punctuation ignored) and e-mail, and carries tags in one page', async () => {
    const byNumber = contactListResponse.parse((await call(roles.user.token, 'GET', `/contacts?searchParam=${encodeURIComponent('(31) 91234')}`)).json());
    expect(byNumber.contacts.map((c) => c.id)).toEqual([tagged.id]);
    expect(byNumber.contacts[0]?.tags).toEqual([{ id: vip.id, name: 'VIP', color: '#ff0000' }]);
    const byEmail = contactListResponse.parse((await call(roles.user.token, 'GET', '/contacts?searchParam=SHOP.COM')).json());
    expect(byEmail.contacts.map((c) => c.id)).toEqual([tagged.id]);
    // LIKE wildcards are literal.
    expect(contactListResponse.parse((await call(roles.user.token, 'GET', '/contacts?searchParam=%25')).json()).count).toBe(0);
  });

  it('filters by tag, channel and group; a malformed tag list is a 400', async () => {
    const byTag = contactListResponse.parse((await call(roles.user.token, 'GET', `/contacts?contactTag=${encodeURIComponent(JSON.stringify([vip.id]))}`)).json());
    expect(byTag.contacts.map((c) => c.id)).toEqual([tagged.id]);
    const groups = contactListResponse.parse((await call(roles.user.token, 'GET', '/contacts?isGroup=true')).json());
    expect(groups.contacts.map((c) => c.name)).toEqual(['Grupo Loja']);
    const insta = contactListResponse.parse((await call(roles.user.token, 'GET', '/contacts?channel=instagram')).json());
    expect(insta.contacts.map((c) => c.name)).toEqual(['Fã do Instagram']);
    for (const bad of ['[1,', '["x"]', '{"a":1}']) {
      const res = await call(roles.user.token, 'GET', `/contacts?contactTag=${encodeURIComponent(bad)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    expect((await call(roles.user.token, 'GET', '/contacts?channel=telegram')).statusCode).toBe(400);
  });

  it('lists the whole company for pickers as a bare array, by name', async () => {
    const res = await call(roles.user.token, 'GET', `/contacts/list?companyId=${roles.otherCompanyId}&name=paged`);
    expect(res.statusCode).toBe(200);
    const list = res.json() as Contact[];
    expect(list).toHaveLength(24);
    expect(list[0]).toMatchObject({ name: 'Paged 00' });
    const all = (await call(roles.user.token, 'GET', '/contacts/list')).json() as Contact[];
    expect(all.find((c) => c.id === tagged.id)?.tags).toEqual([{ id: vip.id, name: 'VIP', color: '#ff0000' }]);
    expect(all.some((c) => c.name === 'Paged elsewhere')).toBe(false);
  });

  it('reads one contact with its extra info and tags', async () => {
    expect(tagged).toMatchObject({ name: 'Zélia Tagged', extraInfo: [{ name: 'valor', value: '10.50' }], tags: [{ id: vip.id, name: 'VIP' }] });
    expect((await call(roles.user.token, 'GET', '/contacts/999999')).json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
  });
});

describe('editing contacts', () => {
  it('updates fields and replaces the extra-info list; an empty list clears it', async () => {
    const row = await seedContact(roles.companyId, { name: 'Editável', number: '5541900000001' });
    const admin = await openSocket(port, roles.admin);
    sockets.push(admin);
    const event = nextEvent<ContactEventPayload>(admin, `company-${roles.companyId}-contact`);
    const res = await call(roles.user.token, 'PUT', `/contacts/${row.id}`, {
      name: 'Editado',
      email: 'edit@example.com',
      number: '5541900000009',
      extraInfo: [
        { name: 'valor', value: '99.90' },
        { name: 'cpf', value: '000' },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Editado', email: 'edit@example.com', number: '5541900000009' });
    expect(res.json().extraInfo.map((f: { name: string }) => f.name)).toEqual(['valor', 'cpf']);
    expect(await event).toMatchObject({ action: 'update', contact: { id: row.id, name: 'Editado' } });

    const replaced = await call(roles.user.token, 'PUT', `/contacts/${row.id}`, { extraInfo: [{ name: 'valor', value: '1.00' }] });
    expect(replaced.json().extraInfo).toEqual([expect.objectContaining({ name: 'valor', value: '1.00' })]);
    expect(replaced.json().name).toBe('Editado');
    // A field left out keeps its value (the kanban's value-only update must not wipe the e-mail).
    expect(replaced.json().email).toBe('edit@example.com');
    const cleared = await call(roles.user.token, 'PUT', `/contacts/${row.id}`, { extraInfo: [] });
    expect(cleared.json().extraInfo).toEqual([]);
    expect(await t.db.select().from(contactCustomFields).where(eq(contactCustomFields.contactId, row.id))).toHaveLength(0);
  });

  it('refuses to move a contact onto a number the company already has, and bad input', async () => {
    const a = await seedContact(roles.companyId, { number: '5541900000101' });
    const b = await seedContact(roles.companyId, { number: '5541900000102' });
    const res = await call(roles.user.token, 'PUT', `/contacts/${b.id}`, { number: a.number });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_DUPLICATED_CONTACT' });
    expect((await call(roles.user.token, 'PUT', `/contacts/${b.id}`, { name: 'B' })).statusCode).toBe(400);
    expect((await call(roles.user.token, 'PUT', `/contacts/${b.id}`, {})).statusCode).toBe(200);
    expect((await call(roles.user.token, 'PUT', `/contacts/${b.id}`, { email: 'x@' })).statusCode).toBe(400);
    const [after] = await t.db.select().from(contacts).where(eq(contacts.id, b.id));
    expect(after).toMatchObject({ number: '5541900000102', name: 'Seed' });
  });

  it('toggles accept-audio and disable-bot, each a flip that is announced', async () => {
    const row = await seedContact(roles.companyId, { acceptAudioMessage: true, disableBot: false });
    const socket = await openSocket(port, roles.user);
    sockets.push(socket);
    const heard = nextEvent<ContactEventPayload>(socket, `company-${roles.companyId}-contact`);
    const audio = await call(roles.user.token, 'PUT', `/contacts/toggleAcceptAudio/${row.id}`);
    expect(audio.statusCode).toBe(200);
    expect(audio.json().acceptAudioMessage).toBe(false);
    expect(await heard).toMatchObject({ action: 'update', contact: { id: row.id, acceptAudioMessage: false } });
    expect((await call(roles.user.token, 'PUT', `/contacts/toggleAcceptAudio/${row.id}`)).json().acceptAudioMessage).toBe(true);

    const bot = await call(roles.user.token, 'PUT', `/contacts/toggleDisableBot/${row.id}`);
    expect(bot.json().disableBot).toBe(true);
    expect((await call(roles.user.token, 'PUT', `/contacts/toggleDisableBot/${row.id}`)).json().disableBot).toBe(false);
    const [after] = await t.db.select().from(contacts).where(eq(contacts.id, row.id));
    expect(after).toMatchObject({ acceptAudioMessage: true, disableBot: false });
  });

  it('blocks and unblocks', async () => {
    const row = await seedContact(roles.companyId);
    const blocked = await call(roles.user.token, 'PUT', `/contacts/block/${row.id}`, { active: false });
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json().active).toBe(false);
    expect((await t.db.select().from(contacts).where(eq(contacts.id, row.id)))[0]?.active).toBe(false);
    expect((await call(roles.user.token, 'PUT', `/contacts/block/${row.id}`, { active: true })).json().active).toBe(true);
    expect((await call(roles.user.token, 'PUT', `/contacts/block/${row.id}`, { active: 'maybe' })).statusCode).toBe(400);
  });

  it('finds the contact of a number for the profile call, from our own records', async () => {
    const row = await seedContact(roles.companyId, { number: '5551988887777', name: 'Perfil', profilePicUrl: 'https://pps.example/p.jpg' });
    const res = await call(roles.user.token, 'GET', '/contacts/profile/5551988887777');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ contactId: row.id, name: 'Perfil', urlPicture: 'https://pps.example/p.jpg', profilePicUrl: 'https://pps.example/p.jpg' });
    expect((await call(roles.user.token, 'GET', '/contacts/profile/5551900000000')).statusCode).toBe(404);
    expect((await call(roles.user.token, 'GET', '/contacts/profile/not-a-number')).statusCode).toBe(404);
  });
});

describe('LGPD: hidden numbers', () => {
  it('masks numbers for users but not admins, in answers and in the contact event; groups keep theirs', async () => {
    const person = await seedContact(roles.companyId, { name: 'LGPD Pessoa', number: '5561987654321' });
    const placeholder = await seedContact(roles.companyId, { name: '5561911112222', number: '5561911112222' });
    const group = await seedContact(roles.companyId, { name: 'LGPD Grupo', number: '120363000000000001', isGroup: true });
    await setHideNumber(roles.companyId, true);
    try {
      const userList = contactListResponse.parse((await call(roles.user.token, 'GET', '/contacts?searchParam=LGPD')).json());
      expect(userList.contacts.map((c) => c.number)).toEqual(['120363000000000001', '5561*****4321']);
      const one = (await call(roles.user.token, 'GET', `/contacts/${placeholder.id}`)).json();
      expect(one).toMatchObject({ number: '5561*****2222', name: '5561*****2222' });
      expect((await call(roles.user.token, 'GET', `/contacts/${group.id}`)).json().number).toBe('120363000000000001');
      expect((await call(roles.admin.token, 'GET', `/contacts/${person.id}`)).json().number).toBe('5561987654321');

      const userSocket = await openSocket(port, roles.user);
      const adminSocket = await openSocket(port, roles.admin);
      sockets.push(userSocket, adminSocket);
      const toUser = collect<ContactEventPayload>(userSocket, `company-${roles.companyId}-contact`);
      const toAdmin = collect<ContactEventPayload>(adminSocket, `company-${roles.companyId}-contact`);
      const res = await call(roles.user.token, 'PUT', `/contacts/block/${person.id}`, { active: false });
      expect(res.json().number).toBe('5561*****4321');
      await sleep(200);
      expect(toUser).toEqual([expect.objectContaining({ action: 'update', contact: expect.objectContaining({ number: '5561*****4321' }) })]);
      expect(toAdmin).toEqual([expect.objectContaining({ action: 'update', contact: expect.objectContaining({ number: '5561987654321' }) })]);

      // The edit dialog sends the masked number back: the stored number stays.
      const edit = await call(roles.user.token, 'PUT', `/contacts/${person.id}`, { name: 'LGPD Pessoa 2', number: '5561*****4321' });
      expect(edit.statusCode).toBe(200);
      const [after] = await t.db.select().from(contacts).where(eq(contacts.id, person.id));
      expect(after).toMatchObject({ name: 'LGPD Pessoa 2', number: '5561987654321' });
      // So does the number-only name of an unnamed contact.
      await call(roles.user.token, 'PUT', `/contacts/${placeholder.id}`, { name: '5561*****2222', number: '5561*****2222', email: 'a@b.co' });
      const [unnamed] = await t.db.select().from(contacts).where(eq(contacts.id, placeholder.id));
      expect(unnamed).toMatchObject({ name: '5561911112222', number: '5561911112222', email: 'a@b.co' });
    } finally {
      await setHideNumber(roles.companyId, false);
    }
    expect((await call(roles.user.token, 'GET', `/contacts/${person.id}`)).json().number).toBe('5561987654321');
  });
});

describe('deleting contacts', () => {
  it('needs contacts-page:deleteContact; takes the tickets along and announces both', async () => {
    const row = await seedContact(roles.companyId);
    const [ticket] = await t.db.insert(tickets).values({ companyId: roles.companyId, contactId: row.id, status: 'pending' }).returning();
    const denied = await call(roles.user.token, 'DELETE', `/contacts/${row.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'ERR_NO_PERMISSION' });

    const socket = await openSocket(port, roles.admin);
    sockets.push(socket);
    const contactEvent = nextEvent<ContactEventPayload>(socket, `company-${roles.companyId}-contact`);
    const ticketEvent = nextEvent<TicketEventPayload>(socket, `company-${roles.companyId}-ticket`);
    expect((await call(roles.admin.token, 'DELETE', `/contacts/${row.id}`)).statusCode).toBe(200);
    expect(await contactEvent).toEqual({ action: 'delete', contactId: row.id });
    expect(await ticketEvent).toEqual({ action: 'delete', ticketId: ticket!.id });
    expect(await t.db.select().from(tickets).where(eq(tickets.id, ticket!.id))).toHaveLength(0);
    expect((await call(roles.admin.token, 'GET', `/contacts/${row.id}`)).statusCode).toBe(404);
  });
});

describe('other companies', () => {
  it("answers 404 for another company's contact on every endpoint and changes nothing", async () => {
    const theirs = await seedContact(roles.otherCompanyId, { name: 'Deles', number: '5571900000001', active: true });
    const before = (await t.db.select().from(contacts).where(eq(contacts.id, theirs.id)))[0];
    const attempts: [method: 'GET' | 'PUT' | 'DELETE', url: string, body?: object][] = [
      ['GET', `/contacts/${theirs.id}`],
      ['PUT', `/contacts/${theirs.id}`, { name: 'Nosso' }],
      ['PUT', `/contacts/toggleAcceptAudio/${theirs.id}`],
      ['PUT', `/contacts/toggleDisableBot/${theirs.id}`],
      ['PUT', `/contacts/block/${theirs.id}`, { active: false }],
      ['GET', `/contacts/profile/${theirs.number}`],
      ['DELETE', `/contacts/${theirs.id}`],
    ];
    for (const [method, url, body] of attempts) {
      const res = await call(roles.admin.token, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
    }
    const list = contactListResponse.parse((await call(roles.admin.token, 'GET', '/contacts?searchParam=Deles')).json());
    expect(list.count).toBe(0);
    expect((await t.db.select().from(contacts).where(eq(contacts.id, theirs.id)))[0]).toEqual(before);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/contacts' })).statusCode).toBe(401);
  });
});
