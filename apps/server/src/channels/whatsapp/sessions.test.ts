import { IMPORT_STATUS_RENDER_CLOSE, type ImportMessagesEventPayload, type WhatsappSessionEventPayload } from '@balcao/contracts';
import type { BaileysEventMap } from '@whiskeysockets/baileys';
import { and, eq } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages, tickets, whatsappSessions } from '../../db/schema/index.js';
import { collect, connectSocket, createCompanyWithAdmin, createTestApp, login, nextEvent, sleep, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually, reloadConnection } from '../../../test/connections.js';
import { fixture } from '../../../test/fixtures.js';
import { fakeSocketFactory, type FakeWaSocket } from '../../../test/fakes/wa-socket.js';
import { queueOutgoing } from '../../modules/conversations/outbound.js';
import { resumeWhatsappSessions } from '../../modules/whatsapp/resume.js';
import type { Connection } from '../adapter.js';

let t: TestApp;
const factory = fakeSocketFactory();
let companyId: number;
let socket: Socket;
let adminToken: string;

const ev = <E extends keyof BaileysEventMap>(name: string) => fixture<BaileysEventMap[E]>(`baileys/${name}.json`);
const byWid = async (whatsappId: number, wid: string) =>
  (await t.db.select().from(messages).where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid))))[0];

async function startConnected(over: Partial<Connection> = {}): Promise<{ conn: Connection; sock: FakeWaSocket }> {
  const conn = await createConnection(t.db, companyId, { channel: 'whatsapp', status: 'OPENING', ...over });
  await t.app.ctx.channels.whatsapp.start(conn);
  const sock = factory.last();
  await sock.emit('connection.update', ev<'connection.update'>('connection-update-qr'));
  await sock.emit('connection.update', ev<'connection.update'>('connection-update-open'));
  return { conn, sock };
}

beforeAll(async () => {
  t = await createTestApp({}, { channels: { makeWaSocket: factory, historyIdleMs: 300 } });
  factory.settleWith(() => t.app.ctx.channels.whatsapp.settled());
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const c = await createCompanyWithAdmin(t.db);
  companyId = c.company.id;
  const admin = await login(t.app, c.email, c.password);
  adminToken = admin.token;
  socket = connectSocket((t.app.server.address() as AddressInfo).port, companyId, { userId: String(admin.user.id), token: `Bearer ${admin.token}` });
  await nextEvent(socket, 'connect');
});

afterAll(async () => {
  socket?.disconnect();
  await t.close();
});

describe('Baileys session lifecycle', () => {
  it('goes QR → CONNECTED → (515 restart) → DISCONNECTED on logout, persisting and emitting each step', async () => {
    const sessions = collect<WhatsappSessionEventPayload>(socket, `company-${companyId}-whatsappSession`);
    const conn = await createConnection(t.db, companyId, { channel: 'whatsapp', status: 'OPENING' });
    await t.app.ctx.channels.whatsapp.start(conn);
    const sock = factory.last();

    const qr = ev<'connection.update'>('connection-update-qr');
    await sock.emit('connection.update', qr);
    expect(await reloadConnection(t.db, conn.id)).toMatchObject({ status: 'qrcode', qrcode: qr.qr, retries: 1 });
    await eventually(async () => sessions.some((s) => s.session.id === conn.id && s.session.qrcode === qr.qr));

    await sock.emit('creds.update', {});
    await eventually(async () => (await t.db.select().from(whatsappSessions).where(eq(whatsappSessions.whatsappId, conn.id))).length > 0);

    await sock.emit('connection.update', ev<'connection.update'>('connection-update-open'));
    expect(await reloadConnection(t.db, conn.id)).toMatchObject({ status: 'CONNECTED', qrcode: '', retries: 0, number: '5511912345678' });
    // The QR dialog closes on a session update with an empty QR.
    await eventually(async () => sessions.some((s) => s.session.id === conn.id && s.session.status === 'CONNECTED' && s.session.qrcode === ''));

    const before = factory.sockets.length;
    await sock.emit('connection.update', ev<'connection.update'>('connection-update-close-restart-required'));
    await eventually(async () => factory.sockets.length > before);
    const second = factory.last();
    expect(second).not.toBe(sock);

    await second.emit('connection.update', ev<'connection.update'>('connection-update-close-logged-out'));
    expect(await reloadConnection(t.db, conn.id)).toMatchObject({ status: 'DISCONNECTED', qrcode: '' });
    expect(await t.db.select().from(whatsappSessions).where(eq(whatsappSessions.whatsappId, conn.id))).toEqual([]);
  });

  it('resumes at boot every connection whose credentials are stored (no new scan)', async () => {
    const stored = await createConnection(t.db, companyId, { channel: 'whatsapp', status: 'CONNECTED' });
    const fresh = await createConnection(t.db, companyId, { channel: 'whatsapp', status: 'DISCONNECTED' });
    await t.db.insert(whatsappSessions).values({ whatsappId: stored.id, key: 'creds', value: '{}' });
    const before = factory.sockets.length;
    await resumeWhatsappSessions(t.app.ctx);
    await eventually(async () => t.app.ctx.channels.whatsapp.isRunning(stored.id));
    expect(t.app.ctx.channels.whatsapp.isRunning(fresh.id)).toBe(false);
    expect(factory.sockets.length).toBeGreaterThan(before);
  });

  it('reconnects with backoff after a dropped connection, counting retries', async () => {
    const { conn, sock } = await startConnected();
    const before = factory.sockets.length;
    await sock.emit('connection.update', { connection: 'close', lastDisconnect: { error: Object.assign(new Error('lost'), { output: { statusCode: 428 } }), date: new Date() } });
    expect(await reloadConnection(t.db, conn.id)).toMatchObject({ status: 'OPENING', retries: 1 });
    await eventually(async () => factory.sockets.length > before, 3000);
    await factory.last().emit('connection.update', ev<'connection.update'>('connection-update-open'));
    expect(await reloadConnection(t.db, conn.id)).toMatchObject({ status: 'CONNECTED', retries: 0 });
  });

  it('gives up after too many QR codes without a scan (DISCONNECTED)', async () => {
    const conn = await createConnection(t.db, companyId, { channel: 'whatsapp', status: 'OPENING' });
    await t.app.ctx.channels.whatsapp.start(conn);
    const sock = factory.last();
    for (let i = 0; i < 7; i++) await sock.emit('connection.update', { qr: `qr-${i}` });
    expect(await reloadConnection(t.db, conn.id)).toMatchObject({ status: 'DISCONNECTED', qrcode: '' });
    expect(sock.ended).toBe(true);
  });
});

describe('linking by pairing code', () => {
  it('POST /whatsappsession/{id} with a phone number shows a pairing code (status PAIRING) instead of a QR', async () => {
    const conn = await createConnection(t.db, companyId, { channel: 'whatsapp', status: 'DISCONNECTED' });
    const before = factory.sockets.length;
    const res = await t.app.inject({ method: 'POST', url: `/whatsappsession/${conn.id}`, headers: { authorization: `Bearer ${adminToken}` }, payload: { phoneNumber: '+55 (11) 98765-4321' } });
    expect(res.statusCode).toBe(200);
    await eventually(async () => factory.sockets.length > before);
    const sock = factory.last();
    await sock.emit('connection.update', ev<'connection.update'>('connection-update-qr'));
    expect(sock.pairingNumbers).toEqual(['5511987654321']);
    expect(await reloadConnection(t.db, conn.id)).toMatchObject({ status: 'PAIRING', qrcode: 'ABCD1234' });
    // A refreshed QR does not replace the code.
    await sock.emit('connection.update', ev<'connection.update'>('connection-update-qr'));
    expect(await reloadConnection(t.db, conn.id)).toMatchObject({ status: 'PAIRING', qrcode: 'ABCD1234' });
    expect(sock.pairingNumbers).toHaveLength(1);
    const bad = await t.app.inject({ method: 'POST', url: `/whatsappsession/${conn.id}`, headers: { authorization: `Bearer ${adminToken}` }, payload: { phoneNumber: '12' } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('Baileys events → inbound pipeline', () => {
  it('sends WhatsApp read receipts for the customer’s messages when an attendant opens the ticket', async () => {
    const { conn, sock } = await startConnected();
    await sock.emit('messages.upsert', ev<'messages.upsert'>('messages-upsert-text'));
    const stored = (await byWid(conn.id, '3ACD112A5967743220E5'))!;
    expect(sock.read).toEqual([]);
    const opened = await t.app.inject({ method: 'GET', url: `/messages/${stored.ticketId}`, headers: { authorization: `Bearer ${adminToken}` } });
    expect(opened.statusCode).toBe(200);
    await eventually(async () => sock.read.length > 0);
    expect(sock.read).toEqual([{ remoteJid: '5511987654321@s.whatsapp.net', id: '3ACD112A5967743220E5', fromMe: false }]);
    // Opening it again reads nothing new: no second receipt.
    await t.app.inject({ method: 'GET', url: `/messages/${stored.ticketId}`, headers: { authorization: `Bearer ${adminToken}` } });
    await sleep(100);
    expect(sock.read).toHaveLength(1);
  });

  it('stores every message type with its mediaType, on one contact (phone number, not LID) and one ticket', async () => {
    const { conn, sock } = await startConnected();
    const created = nextEvent<{ action: string; contact: { number: string } }>(socket, `company-${companyId}-appMessage`);
    const kinds = ['text', 'extended-text', 'image', 'audio-ptt', 'video', 'sticker', 'location', 'contact-vcard', 'reaction'];
    for (const kind of kinds) await sock.emit('messages.upsert', ev<'messages.upsert'>(`messages-upsert-${kind}`));
    expect((await created).contact.number).toBe('5511987654321');

    const maria = await t.db.select().from(contacts).where(and(eq(contacts.companyId, companyId), eq(contacts.number, '5511987654321')));
    expect(maria).toHaveLength(1);
    expect(maria[0]).toMatchObject({ name: 'Maria Silva', remoteJid: '5511987654321@s.whatsapp.net' });
    const rows = await t.db.select().from(messages).where(eq(messages.whatsappId, conn.id));
    expect(new Set(rows.map((r) => r.ticketId)).size).toBe(1);
    expect(rows.map((r) => r.mediaType).sort()).toEqual(
      ['chat', 'chat', 'image', 'audio', 'video', 'sticker', 'locationMessage', 'contactMessage', 'reactionMessage'].sort(),
    );
    expect((await byWid(conn.id, '3AAB873C35FD01798922'))?.body).toContain('maps.google.com');
    expect((await byWid(conn.id, '3A2AD005105E68137FEE'))?.quotedMsgId).toBeNull();

    // A document from another person (PN-addressed chat).
    await sock.emit('messages.upsert', ev<'messages.upsert'>('messages-upsert-document'));
    expect((await byWid(conn.id, 'B539C10457BF716ABB514EB251B9798C'))).toMatchObject({ mediaType: 'application', body: 'comprovante-pix-4521.pdf' });

    // Redelivery (reconnect replay) changes nothing.
    await sock.emit('messages.upsert', ev<'messages.upsert'>('messages-upsert-text'));
    expect(await t.db.select().from(messages).where(eq(messages.whatsappId, conn.id))).toHaveLength(10);
  });

  it('applies edits, deletions, calls, groups and acks', async () => {
    const { conn, sock } = await startConnected({ allowGroup: false });
    await sock.emit('messages.upsert', ev<'messages.upsert'>('messages-upsert-text'));
    await sock.emit('messages.upsert', ev<'messages.upsert'>('messages-upsert-edit'));
    expect(await byWid(conn.id, '3ACD112A5967743220E5')).toMatchObject({ isEdited: true, body: 'Oi, boa tarde! Meu pedido #4512 ainda não chegou. Podem verificar?' });

    await sock.emit('messages.upsert', ev<'messages.upsert'>('messages-upsert-contact-vcard'));
    await sock.emit('messages.upsert', ev<'messages.upsert'>('messages-upsert-revoke'));
    expect((await byWid(conn.id, '3AA0846745978B031661'))?.isDeleted).toBe(true);

    await sock.emit('call', ev<'call'>('call-offer'));
    expect(await byWid(conn.id, '48C01611DDA3404DB3E4E631065E01D8')).toMatchObject({ mediaType: 'call_log' });

    await sock.emit('messages.upsert', ev<'messages.upsert'>('messages-upsert-group-text'));
    expect(await byWid(conn.id, 'E5908110E9F159D50990D70241AE53FD')).toBeUndefined();

    // Our reply goes through the outbox with an id chosen before the send; WhatsApp's receipts move its ack.
    const [ticket] = await t.db.select().from(tickets).where(eq(tickets.whatsappId, conn.id));
    const row = await queueOutgoing(t.app.ctx, { companyId, ticketId: ticket!.id, body: 'Já verifico!' });
    const sent = await eventually(async () => ((await byWid(conn.id, row.wid!))?.sendStatus === 'sent' ? byWid(conn.id, row.wid!) : undefined));
    expect(sent).toMatchObject({ ack: 1 });
    expect(sock.sent.at(-1)).toMatchObject({ jid: '5511987654321@s.whatsapp.net', content: { text: 'Já verifico!' }, options: { messageId: row.wid } });
    // Baileys echoes our own send as an upsert: still one row.
    await sock.emit('messages.upsert', { type: 'append', messages: [{ key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: true, id: row.wid }, message: { conversation: 'Já verifico!' }, messageTimestamp: 1750000900 }] } as unknown as BaileysEventMap['messages.upsert']);
    expect((await t.db.select().from(messages).where(eq(messages.wid, row.wid!))).length).toBe(1);
    await sock.emit('messages.update', [{ key: { remoteJid: '150123456789012@lid', id: row.wid, fromMe: true }, update: { status: 3 } }]);
    expect((await byWid(conn.id, row.wid!))?.ack).toBe(2);
    await sock.emit('messages.update', [{ key: { remoteJid: '150123456789012@lid', id: row.wid, fromMe: true }, update: { status: 4 } }]);
    expect((await byWid(conn.id, row.wid!))?.ack).toBe(3);
  });

  it('puts group messages on one group ticket when groups are allowed', async () => {
    const { conn, sock } = await startConnected({ allowGroup: true, groupAsTicket: 'disabled' });
    await sock.emit('messages.upsert', ev<'messages.upsert'>('messages-upsert-group-text'));
    const row = await byWid(conn.id, 'E5908110E9F159D50990D70241AE53FD');
    const [ticket] = await t.db.select().from(tickets).where(eq(tickets.id, row!.ticketId));
    expect(ticket).toMatchObject({ isGroup: true, status: 'group' });
    const [group] = await t.db.select().from(contacts).where(eq(contacts.id, ticket!.contactId));
    expect(group).toMatchObject({ isGroup: true, number: '120363041234567890', name: 'Clientes VIP - Loja Exemplo' });
  });
});

describe('history import', () => {
  it('imports the window, reports progress on importMessages-{companyId} and leaves the close button', async () => {
    const progress = collect<ImportMessagesEventPayload>(socket, `importMessages-${companyId}`);
    const { conn, sock } = await startConnected({
      enableImportMessage: true,
      importOldMessages: new Date('2025-06-01T00:00:00Z'),
      importRecentMessages: new Date(),
      importOldMessagesGroups: false,
    });
    expect(factory.last().config.syncFullHistory).toBe(true);
    expect(Number((await reloadConnection(t.db, conn.id))?.statusImportMessages)).toBeGreaterThan(Date.now() - 10_000);

    await sock.emit('messaging-history.set', ev<'messaging-history.set'>('messaging-history-set'));
    await sleep(100);
    const updates = progress.filter((p): p is Extract<ImportMessagesEventPayload, { action: 'update' }> => p.action === 'update');
    expect(updates.at(-1)?.status).toMatchObject({ this: 3, all: 3, percent: 100 });
    await eventually(async () => progress.some((p) => p.action === 'refresh'), 3000);
    expect((await reloadConnection(t.db, conn.id))?.statusImportMessages).toBe(IMPORT_STATUS_RENDER_CLOSE);

    const imported = await t.db.select().from(tickets).where(eq(tickets.whatsappId, conn.id));
    expect(imported.length).toBe(2);
    expect(imported.every((tk) => tk.importedAt !== null && tk.unreadMessages === 0)).toBe(true);
    const old = await byWid(conn.id, '3AF27CE4E04779C8BAFB');
    expect(old?.createdAt.toISOString()).toBe(new Date(1749741500 * 1000).toISOString());
    expect(await byWid(conn.id, '5D2F55AA8806B4331D079C2CECBF850B')).toBeUndefined();
    await sleep(50);
  });
});
