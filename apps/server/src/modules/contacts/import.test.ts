import { contactImportResult, contactSchema, IMPORT_MSG, type ContactImportProgressPayload } from '@balcao/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { contactTags, contacts, tags } from '../../db/schema/index.js';
import { bearer, collect, sleep, type TestApp } from '../../../test/helpers.js';
import { multipart } from '../../../test/multipart.js';
import { openSocket, type Roles, rolesSuite } from '../../../test/roles.js';
import { PNG } from '../../../test/fakes/graph-server.js';

let t: TestApp;
let roles: Roles;
let port: number;
const sockets = rolesSuite((suite) => ({ t, roles, port } = suite));

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A real .xlsx built with exceljs: the first row is the header. */
async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Planilha1');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function upload(token: string, data: Buffer, fields: Record<string, string> = {}, name = 'contatos.xlsx', type = XLSX_TYPE) {
  const form = multipart(fields, { field: 'file', name, type, data });
  return t.app.inject({ method: 'POST', url: '/contacts/upload', headers: { ...bearer(token), ...form.headers }, payload: form.payload });
}

const companyContacts = (companyId: number) => t.db.select().from(contacts).where(eq(contacts.companyId, companyId));

async function tagNamesOf(contactId: number): Promise<string[]> {
  const rows = await t.db.select({ name: tags.name }).from(contactTags).innerJoin(tags, eq(tags.id, contactTags.tagId)).where(eq(contactTags.contactId, contactId));
  return rows.map((r) => r.name).sort();
}

describe('POST /contacts/upload', () => {
  const sheet = [
    ['Nome', 'Telefone', 'E-mail', 'Tags'],
    ['Ana Lima', '(11) 98765-4321', 'Ana@Example.com', 'VIP, Atacado'],
    ['Bruno Reis', '+55 21 99876-5432', 'não é e-mail', ''],
    ['Carla Dias', 5531912345678, '', 'atacado'],
    ['Sem Número', '', 'x@example.com', ''],
    ['', '11912345678', '', ''],
    ['Número Falso', '123456789', '', ''],
    [null, null, null, null],
  ];

  it('recognises Portuguese headers, normalises numbers, creates tags, and counts what it ignored; only the importer hears the progress', async () => {
    const mine = await openSocket(port, roles.user);
    const colleague = await openSocket(port, roles.admin);
    const theirs = await openSocket(port, roles.otherAdmin);
    sockets.push(mine, colleague, theirs);
    const heard = collect<ContactImportProgressPayload>(mine, `company-${roles.companyId}-contactImport`);
    const colleagueHeard = collect(colleague, `company-${roles.companyId}-contactImport`);
    const leaked = collect(theirs, `company-${roles.otherCompanyId}-contactImport`);

    const res = await upload(roles.user.token, await xlsx(sheet));
    expect(res.statusCode).toBe(200);
    expect(contactImportResult.parse(res.json())).toEqual({
      total: 6,
      created: 3,
      updated: 0,
      ignored: 3,
      ignoredBy: { invalidNumber: 1, missingField: 2, notSelected: 0 },
    });
    const rows = await companyContacts(roles.companyId);
    const byNumber = new Map(rows.map((r) => [r.number, r]));
    expect(byNumber.get('5511987654321')).toMatchObject({ name: 'Ana Lima', email: 'ana@example.com', channel: 'whatsapp', remoteJid: '5511987654321@s.whatsapp.net' });
    expect(byNumber.get('5521998765432')).toMatchObject({ name: 'Bruno Reis', email: '' });
    expect(byNumber.get('5531912345678')).toMatchObject({ name: 'Carla Dias' });
    expect(rows.some((r) => r.number.includes('123456789'))).toBe(false);
    expect(await tagNamesOf(byNumber.get('5511987654321')!.id)).toEqual(['Atacado', 'VIP']);
    // "atacado" is the tag the row above created, whatever its case.
    expect(await tagNamesOf(byNumber.get('5531912345678')!.id)).toEqual(['Atacado']);

    await sleep(150);
    expect(heard.at(-1)).toEqual({ action: 'done', processed: 6, total: 6 });
    expect(heard.some((p) => p.action === 'progress')).toBe(true);
    expect(colleagueHeard).toHaveLength(0);
    expect(leaked).toHaveLength(0);
    expect(await companyContacts(roles.otherCompanyId)).toHaveLength(0);
  });

  it('imports the same file again without creating anything, and updates a contact typed differently', async () => {
    const versions = async () => (await t.db.execute<{ id: number; xmin: string }>(sql`select id, xmin::text from contacts where company_id = ${roles.companyId} order by id`)).rows;
    const before = await versions();
    const again = await upload(roles.user.token, await xlsx(sheet));
    expect(again.json()).toMatchObject({ total: 6, created: 0, updated: 3, ignored: 3 });
    expect(await companyContacts(roles.companyId)).toHaveLength(3);
    // Nothing in the sheet changed: no contact row was rewritten.
    expect(await versions()).toEqual(before);
    // An unchanged contact still gets the tags a sheet adds.
    const tagged = await upload(roles.user.token, await xlsx([['Nome', 'Telefone', 'Tags'], ['Carla Dias', '5531912345678', 'Reimportada']]));
    expect(tagged.json()).toMatchObject({ total: 1, created: 0, updated: 1 });
    const carla = (await companyContacts(roles.companyId)).find((c) => c.number === '5531912345678')!;
    expect(await tagNamesOf(carla.id)).toEqual(['Atacado', 'Reimportada']);

    const renamed = await upload(roles.admin.token, await xlsx([['name', 'number'], ['Ana Renomeada', '5511987654321'], ['Ana Outra Vez', '11 98765 4321']]));
    expect(renamed.json()).toMatchObject({ total: 2, created: 0, updated: 2 });
    const [ana] = await t.db.select().from(contacts).where(and(eq(contacts.companyId, roles.companyId), eq(contacts.number, '5511987654321')));
    // The later row wins; the e-mail the sheet leaves out is kept; so are the tags.
    expect(ana).toMatchObject({ name: 'Ana Outra Vez', email: 'ana@example.com' });
    expect(await tagNamesOf(ana!.id)).toEqual(['Atacado', 'VIP']);
    expect(await companyContacts(roles.companyId)).toHaveLength(3);
  });

  it('follows a mapping of columns and imports only the selected rows', async () => {
    const file = await xlsx([
      ['Coluna A', 'Coluna B', 'Coluna C'],
      ['ignorado', 'Diego Mapeado', '11 97777-0001'],
      ['ignorado', 'Elisa Mapeada', '11 97777-0002'],
      ['ignorado', 'Fábio Não Escolhido', '11 97777-0003'],
    ]);
    const res = await upload(roles.user.token, file, { mapping: JSON.stringify([null, 'name', 'number']), rows: JSON.stringify([2, 3]) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ total: 3, created: 2, updated: 0, ignored: 1, ignoredBy: { invalidNumber: 0, missingField: 0, notSelected: 1 } });
    const names = (await t.db.select().from(contacts).where(inArray(contacts.number, ['5511977770001', '5511977770002', '5511977770003']))).map((c) => c.name);
    expect(names.sort()).toEqual(['Diego Mapeado', 'Elisa Mapeada']);
  });

  it("refuses an incomplete mapping, a field mapped twice and an empty selection with the spec's messages, importing nothing", async () => {
    const before = (await companyContacts(roles.companyId)).length;
    const file = await xlsx([['A', 'B'], ['Gil', '11 96666-0001']]);
    const cases: [Record<string, string>, string, string][] = [
      [{ mapping: JSON.stringify(['name', null]) }, 'mapping', IMPORT_MSG.numberNotMapped],
      [{ mapping: JSON.stringify([null, 'number']) }, 'mapping', IMPORT_MSG.nameNotMapped],
      [{ mapping: JSON.stringify(['number', 'number']) }, 'mapping', 'O campo number já foi selecionado.'],
      [{}, 'mapping', IMPORT_MSG.numberNotMapped],
      [{ mapping: JSON.stringify(['name', 'number']), rows: '[]' }, 'rows', IMPORT_MSG.noRows],
      [{ mapping: JSON.stringify(['name', 'number']), rows: '[9]' }, 'rows', IMPORT_MSG.noRows],
    ];
    for (const [fields, path, message] of cases) {
      const res = await upload(roles.user.token, file, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
      expect(res.json().issues).toContainEqual({ path, message });
    }
    for (const mapping of ['not json', '["phone"]', '{"a":1}']) {
      const res = await upload(roles.user.token, file, { mapping });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    expect(await companyContacts(roles.companyId)).toHaveLength(before);
  });

  it('reads a semicolon CSV saved by Excel (Windows-1252) and a .txt', async () => {
    const csv = Buffer.from('nome;número;email\nJoão Acentuado;(41) 98888-0001;joao@example.com\n', 'latin1');
    const res = await upload(roles.user.token, csv, {}, 'contatos.csv', 'text/csv');
    expect(res.json()).toMatchObject({ created: 1, ignored: 0 });
    const [joao] = await t.db.select().from(contacts).where(eq(contacts.number, '5541988880001'));
    expect(joao).toMatchObject({ name: 'João Acentuado', email: 'joao@example.com', companyId: roles.companyId });
    const txt = Buffer.from('name,number\r\nKátia Texto,+55 41 98888-0002\r\n');
    expect((await upload(roles.user.token, txt, {}, 'contatos.txt', 'text/plain')).json()).toMatchObject({ created: 1 });
  });

  it("answers 'Arquivo inválido' for what is not a spreadsheet, 413 past the upload limit, and imports nothing", async () => {
    const before = (await companyContacts(roles.companyId)).length;
    const bad: [Buffer, string][] = [
      [PNG, 'foto.xlsx'],
      [Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(200, 7)]), 'quebrado.xlsx'],
      [Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]), 'antigo.xls'],
      [Buffer.alloc(0), 'vazio.csv'],
    ];
    for (const [data, name] of bad) {
      const res = await upload(roles.user.token, data, {}, name);
      expect(res.statusCode, name).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_INVALID_SPREADSHEET' });
    }
    const huge = await upload(roles.user.token, Buffer.alloc(50 * 1024 * 1024, 'a'), {}, 'enorme.csv', 'text/csv');
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ error: 'ERR_FILE_TOO_LARGE' });
    const noFile = multipart({ mapping: '["name","number"]' });
    const missing = await t.app.inject({ method: 'POST', url: '/contacts/upload', headers: { ...bearer(roles.user.token), ...noFile.headers }, payload: noFile.payload });
    expect(missing.statusCode).toBe(400);
    const json = await t.app.inject({ method: 'POST', url: '/contacts/upload', headers: bearer(roles.user.token), payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(await companyContacts(roles.companyId)).toHaveLength(before);
  });

  it('needs a session', async () => {
    const form = multipart({}, { field: 'file', name: 'a.csv', type: 'text/csv', data: Buffer.from('nome,numero\nA,11912345678\n') });
    expect((await t.app.inject({ method: 'POST', url: '/contacts/upload', headers: form.headers, payload: form.payload })).statusCode).toBe(401);
  });
});

describe('POST /contactsImport', () => {
  const row = (token: string, body: object) => t.app.inject({ method: 'POST', url: '/contactsImport', headers: bearer(token), payload: body });

  it('creates one contact with its tags, then updates it by number; another company gets its own', async () => {
    const first = await row(roles.user.token, { name: 'Helena Api', number: '11 95555-0001', email: 'H@Example.com', tags: 'Api; Novo', validateContact: 'false' });
    expect(first.statusCode).toBe(200);
    const contact = contactSchema.parse(first.json());
    expect(contact).toMatchObject({ name: 'Helena Api', number: '5511955550001', email: 'h@example.com' });
    expect(contact.tags.map((t) => t.name).sort()).toEqual(['Api', 'Novo']);
    const second = contactSchema.parse((await row(roles.user.token, { name: 'Helena Atualizada', number: 5511955550001 })).json());
    expect(second.id).toBe(contact.id);
    expect(second.name).toBe('Helena Atualizada');
    const theirs = contactSchema.parse((await row(roles.otherAdmin.token, { name: 'Helena Deles', number: '5511955550001' })).json());
    expect(theirs.id).not.toBe(contact.id);
    const [mine] = await t.db.select().from(contacts).where(eq(contacts.id, contact.id));
    expect(mine).toMatchObject({ name: 'Helena Atualizada', companyId: roles.companyId });
  });

  it('refuses a number that cannot be valid, and a missing name, storing nothing', async () => {
    for (const body of [{ name: 'X', number: '99' }, { name: 'X', number: 'abc123' }, { number: '11955550009' }, { name: 'Y', number: '5511855550009' }]) {
      const res = await row(roles.user.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    expect(await t.db.select().from(contacts).where(inArray(contacts.number, ['5511955550009', '5511855550009']))).toHaveLength(0);
  });
});

describe('GET /contacts/export', () => {
  it("streams every contact of the company with tags and extra info in the sheet 'Contatos'", async () => {
    const [ana] = await t.db.select().from(contacts).where(and(eq(contacts.companyId, roles.companyId), eq(contacts.number, '5511987654321')));
    await t.app.inject({ method: 'PUT', url: `/contacts/${ana!.id}`, headers: bearer(roles.admin.token), payload: { extraInfo: [{ name: 'cpf', value: '123' }] } });
    const res = await t.app.inject({ method: 'GET', url: '/contacts/export', headers: bearer(roles.admin.token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain('contatos.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Contatos');
    expect(sheet).toBeDefined();
    const rows: string[][] = [];
    sheet!.eachRow((r) => rows.push((r.values as string[]).slice(1).map((v) => String(v ?? ''))));
    expect(rows[0]?.slice(0, 4)).toEqual(['Nome', 'Número', 'E-mail', 'Tags']);
    const own = await companyContacts(roles.companyId);
    expect(rows).toHaveLength(own.length + 1);
    const anaRow = rows.find((r) => r[1] === '5511987654321');
    expect(anaRow?.[3]?.split(', ').sort()).toEqual(['Atacado', 'VIP']);
    expect(anaRow?.[4]).toBe('cpf: 123');
    expect(rows.some((r) => r[0] === 'Helena Deles')).toBe(false);
  });

  it('re-imports its own file without creating anything', async () => {
    const file = (await t.app.inject({ method: 'GET', url: '/contacts/export', headers: bearer(roles.admin.token) })).rawPayload;
    const res = await upload(roles.admin.token, file);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ created: 0, ignored: 0 });
  });

  it('is refused to a user without contacts-page:deleteContact, and without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/contacts/export', headers: bearer(roles.user.token) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await t.app.inject({ method: 'GET', url: '/contacts/export' })).statusCode).toBe(401);
  });
});
