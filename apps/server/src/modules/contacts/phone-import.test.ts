import type { BaileysEventMap } from '@whiskeysockets/baileys';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts } from '../../db/schema/index.js';
import { bearer, createCompanyWithAdmin, createTestApp, login, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { createConnection } from '../../../test/connections.js';
import { fixture } from '../../../test/fixtures.js';
import { fakeSocketFactory } from '../../../test/fakes/wa-socket.js';
import { createPlainUser } from '../../../test/roles.js';

let t: TestApp;
const factory = fakeSocketFactory();
let companyId: number;
let user: LoggedIn;
let otherAdmin: LoggedIn;
let otherCompanyId: number;

const ev = <E extends keyof BaileysEventMap>(name: string) => fixture<BaileysEventMap[E]>(`baileys/${name}.json`);

beforeAll(async () => {
  t = await createTestApp({}, { channels: { makeWaSocket: factory, historyIdleMs: 300 } });
  factory.settleWith(() => t.app.ctx.channels.whatsapp.settled());
  const own = await createCompanyWithAdmin(t.db);
  companyId = own.company.id;
  user = await createPlainUser(t, companyId);
  const other = await createCompanyWithAdmin(t.db);
  otherCompanyId = other.company.id;
  otherAdmin = await login(t.app, other.email, other.password);
});

afterAll(async () => {
  await t.close();
});

const importPhone = (token: string) => t.app.inject({ method: 'POST', url: '/contacts/import', headers: bearer(token) });

describe('POST /contacts/import', () => {
  it("answers ERR_NO_DEF_WAPP_FOUND while the company has no connected WhatsApp", async () => {
    const res = await importPhone(user.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_DEF_WAPP_FOUND' });
  });

  it("imports the phone's address book as Baileys handed it over, keeping names people gave; again creates nothing", async () => {
    await t.db.insert(contacts).values({ companyId, name: 'João Cadastrado', number: '5521998765432', remoteJid: '5521998765432@s.whatsapp.net' });
    const conn = await createConnection(t.db, companyId, { channel: 'whatsapp', status: 'OPENING' });
    await t.app.ctx.channels.whatsapp.start(conn);
    const sock = factory.last();
    await sock.emit('connection.update', ev<'connection.update'>('connection-update-qr'));
    await sock.emit('connection.update', ev<'connection.update'>('connection-update-open'));
    // Maria with her phone number; João only by LID (no number: not importable from this event).
    await sock.emit('contacts.upsert', ev<'contacts.upsert'>('contacts-upsert'));
    // The history sync: a group (skipped), João with his number, Maria again by LID without a name.
    await sock.emit('messaging-history.set', ev<'messaging-history.set'>('messaging-history-set'));

    const res = await importPhone(user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ total: 2, created: 1, updated: 1, ignored: 0 });
    const rows = await t.db.select().from(contacts).where(eq(contacts.companyId, companyId));
    const byNumber = new Map(rows.map((r) => [r.number, r]));
    expect(byNumber.get('5511987654321')).toMatchObject({ name: 'Maria Silva (cliente)', channel: 'whatsapp', remoteJid: '5511987654321@s.whatsapp.net' });
    expect(byNumber.get('5521998765432')?.name).toBe('João Cadastrado');
    expect(rows).toHaveLength(2);

    expect((await importPhone(user.token)).json()).toEqual({ total: 2, created: 0, updated: 2, ignored: 0 });
    expect(await t.db.select().from(contacts).where(eq(contacts.companyId, companyId))).toHaveLength(2);
  });

  it("never reaches another company's phone", async () => {
    const res = await importPhone(otherAdmin.token);
    expect(res.statusCode).toBe(404);
    expect(await t.db.select().from(contacts).where(eq(contacts.companyId, otherCompanyId))).toHaveLength(0);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/contacts/import' })).statusCode).toBe(401);
  });
});

describe('POST /contacts/import/chats', () => {
  let chatsCompanyId: number;
  let chatsUser: LoggedIn;
  const importChats = (token: string) => t.app.inject({ method: 'POST', url: '/contacts/import/chats', headers: bearer(token) });
  const companyContacts = () => t.db.select().from(contacts).where(eq(contacts.companyId, chatsCompanyId));

  beforeAll(async () => {
    chatsCompanyId = (await createCompanyWithAdmin(t.db)).company.id;
    chatsUser = await createPlainUser(t, chatsCompanyId);
  });

  it('answers ERR_NO_DEF_WAPP_FOUND while the company has no connected WhatsApp', async () => {
    const res = await importChats(chatsUser.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_DEF_WAPP_FOUND' });
  });

  it('imports the people the phone has chats with (not the whole address book, not groups), by the number behind a LID; again creates nothing', async () => {
    const conn = await createConnection(t.db, chatsCompanyId, { channel: 'whatsapp', status: 'OPENING' });
    await t.app.ctx.channels.whatsapp.start(conn);
    const sock = factory.last();
    await sock.emit('connection.update', ev<'connection.update'>('connection-update-qr'));
    await sock.emit('connection.update', ev<'connection.update'>('connection-update-open'));
    // Maria is in the address book, but the phone has no chat yet.
    await sock.emit('contacts.upsert', ev<'contacts.upsert'>('contacts-upsert'));
    expect((await importChats(chatsUser.token)).json()).toEqual({ total: 0, created: 0, updated: 0, ignored: 0 });

    const history = ev<'messaging-history.set'>('messaging-history-set');
    // João's chat arriving on its own (chats.upsert), named by WhatsApp.
    await sock.emit('chats.upsert', history.chats.filter((c) => c.id === '5521998765432@s.whatsapp.net'));
    expect((await importChats(chatsUser.token)).json()).toEqual({ total: 1, created: 1, updated: 0, ignored: 0 });

    // The history sync: a group (skipped), João again, Maria's chat by LID with her number behind it and no name.
    await sock.emit('messaging-history.set', history);
    expect((await importChats(chatsUser.token)).json()).toEqual({ total: 2, created: 1, updated: 1, ignored: 0 });
    const rows = await companyContacts();
    expect(rows).toHaveLength(2);
    const byNumber = new Map(rows.map((r) => [r.number, r]));
    expect(byNumber.get('5521998765432')).toMatchObject({ name: 'João Pereira', channel: 'whatsapp', remoteJid: '5521998765432@s.whatsapp.net', isGroup: false });
    // A chat without a name takes the address book's.
    expect(byNumber.get('5511987654321')).toMatchObject({ name: 'Maria Silva (cliente)', remoteJid: '5511987654321@s.whatsapp.net' });

    expect((await importChats(chatsUser.token)).json()).toEqual({ total: 2, created: 0, updated: 2, ignored: 0 });
    expect(await companyContacts()).toHaveLength(2);

    // A chat deleted on the phone is no longer imported (its contact stays).
    await sock.emit('chats.delete', ['5521998765432@s.whatsapp.net']);
    expect((await importChats(chatsUser.token)).json()).toEqual({ total: 1, created: 0, updated: 1, ignored: 0 });
    expect(await companyContacts()).toHaveLength(2);
  });

  it("never reaches another company's phone chats", async () => {
    const res = await importChats(otherAdmin.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_DEF_WAPP_FOUND' });
    expect(await t.db.select().from(contacts).where(eq(contacts.companyId, otherCompanyId))).toHaveLength(0);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/contacts/import/chats' })).statusCode).toBe(401);
  });
});
