import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BufferJSON, initAuthCreds } from '@whiskeysockets/baileys';
import { messages, whatsappSessionLeases, whatsappSessions } from '../../db/schema/index.js';
import { queueOutgoing, sweepOutbox } from '../../modules/conversations/outbound.js';
import { resumeWhatsappSessions, startSessionLeases } from '../../modules/whatsapp/resume.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { fakeSocketFactory, type FakeSocketFactory } from '../../../test/fakes/wa-socket.js';
import { createCompanyWithAdmin, createTestApp, createTestDatabase, type TestApp } from '../../../test/helpers.js';
import type { Connection } from '../adapter.js';
import { createContact, createTicketRow } from '../../../test/tickets.js';

/**
 * Issue 19 point 2: one node runs each WhatsApp session, through its lease. Two nodes (two
 * apps on one database): a session held by A is not started by B at boot; an expired lease
 * (A died) is taken over by B; an admin's start through B takes it at once, and A closes its
 * socket at its next heartbeat; a stopped session has no lease, so no node restarts it.
 */

let a: TestApp;
let b: TestApp;
const sockets: Record<'a' | 'b', FakeSocketFactory> = { a: fakeSocketFactory(), b: fakeSocketFactory() };
let connection: Connection;

beforeAll(async () => {
  const database = await createTestDatabase();
  a = await createTestApp({}, { channels: { makeWaSocket: sockets.a } }, database);
  b = await createTestApp({}, { channels: { makeWaSocket: sockets.b } }, database);
  const { company } = await createCompanyWithAdmin(a.db);
  connection = await createConnection(a.db, company.id, { channel: 'whatsapp' });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const holder = async () => (await a.db.select().from(whatsappSessionLeases).where(eq(whatsappSessionLeases.whatsappId, connection.id)))[0]?.nodeId;
const wa = (t: TestApp) => t.app.ctx.channels.whatsapp;

describe('WhatsApp session leases', () => {
  it('runs a session on one node, moves it when its lease expires or an admin starts it elsewhere, and forgets it when stopped', { timeout: 30_000 }, async () => {
    await wa(a).start(connection, { ifFree: true });
    expect(wa(a).isRunning(connection.id)).toBe(true);
    expect(await holder()).toBe(wa(a).leases.nodeId);

    // Boot of another node: the session is A's, B leaves it alone.
    await wa(b).start(connection, { ifFree: true });
    expect(wa(b).isRunning(connection.id)).toBe(false);
    await wa(b).takeOver(connection.id);
    expect(wa(b).isRunning(connection.id)).toBe(false);

    // A stops renewing (dead): B takes it over from the stored state.
    await a.db.update(whatsappSessionLeases).set({ expiresAt: sql`now() - interval '1 second'` });
    await wa(b).takeOver(connection.id);
    expect(wa(b).isRunning(connection.id)).toBe(true);
    expect(await holder()).toBe(wa(b).leases.nodeId);

    // A's heartbeat finds the lease gone: its socket closes there, without a logout.
    await startSessionLeases(a.app.ctx, a.pool.options);
    await eventually(async () => !wa(a).isRunning(connection.id), 12_000);
    expect(sockets.a.last()).toMatchObject({ ended: true, loggedOut: false });
    await wa(a).leases.stop();

    // An admin's start through A takes it back at once.
    await wa(a).start(connection);
    expect(await holder()).toBe(wa(a).leases.nodeId);

    // Stopped: no lease, no node restarts it.
    await wa(a).stop(connection, { logout: false });
    expect(await holder()).toBeUndefined();
    await wa(b).takeOver(connection.id);
    expect(await holder()).toBeUndefined();
  });

  it('one node (no REDIS_URL): at boot it takes the sessions its killed previous run still holds, at once', async () => {
    await a.db.insert(whatsappSessions).values({ whatsappId: connection.id, key: 'creds', value: JSON.stringify(initAuthCreds(), BufferJSON.replacer) });
    await a.db
      .insert(whatsappSessionLeases)
      .values({ whatsappId: connection.id, nodeId: 'killed-previous-run', expiresAt: sql`now() + interval '15 seconds'` })
      .onConflictDoUpdate({ target: whatsappSessionLeases.whatsappId, set: { nodeId: 'killed-previous-run', expiresAt: sql`now() + interval '15 seconds'` } });
    await resumeWhatsappSessions(a.app.ctx);
    await eventually(async () => (await holder()) === wa(a).leases.nodeId);
    await eventually(async () => wa(a).isRunning(connection.id));
  });

  it('hands the reactions, edits, deletes and read receipts made on a node without the session to the node running it', { timeout: 30_000 }, async () => {
    await wa(a).start(connection);
    // What B's heartbeat does once A holds the lease (B ran it earlier in this file).
    await wa(b).dropLocal(connection.id);
    const socket = sockets.a.last();
    await socket.emit('connection.update', { connection: 'open' });
    await startSessionLeases(a.app.ctx, a.pool.options);
    try {
      const to = { number: '5511977770001', remoteJid: '5511977770001@s.whatsapp.net', isGroup: false };
      const jid = '5511977770001@s.whatsapp.net';
      expect(wa(b).isRunning(connection.id)).toBe(false);
      await wa(b).react(connection, to, 'WIDREACT', '👍');
      await wa(b).edit(connection, to, 'WIDEDIT', 'texto corrigido');
      await wa(b).delete(connection, to, 'WIDDELETE');
      await wa(b).markRead(connection, to, [{ wid: 'WIDREAD' }]);
      await eventually(async () => socket.sent.length === 3 && socket.read.length === 1);
      // Each notification runs as it arrives: operations on different messages may interleave.
      expect(socket.sent.map((s) => s.content)).toHaveLength(3);
      expect(socket.sent.map((s) => s.content)).toEqual(expect.arrayContaining([
        { react: { text: '👍', key: { remoteJid: jid, id: 'WIDREACT', fromMe: false } } },
        { text: 'texto corrigido', edit: { remoteJid: jid, id: 'WIDEDIT', fromMe: true } },
        { delete: { remoteJid: jid, id: 'WIDDELETE', fromMe: true } },
      ]));
      expect(socket.read).toEqual([{ remoteJid: jid, id: 'WIDREAD', fromMe: false }]);
      // B opened no socket of its own for them.
      expect(wa(b).isRunning(connection.id)).toBe(false);
    } finally {
      await wa(a).leases.stop();
    }
  });

  it('resends a row left in flight by a dead node under the same WhatsApp message id, once', { timeout: 30_000 }, async () => {
    await wa(a).start(connection);
    await wa(b).dropLocal(connection.id);
    const onA = sockets.a.last();
    await onA.emit('connection.update', { connection: 'open' });
    const contact = await createContact(a.db, connection.companyId, { number: '5511977770002' });
    const ticket = await createTicketRow(a.db, { companyId: connection.companyId, contactId: contact.id, whatsappId: connection.id, status: 'open' });
    const sentBefore = onA.sent.length;
    const row = await queueOutgoing(a.app.ctx, { companyId: connection.companyId, ticketId: ticket.id, body: 'em voo' });
    // The id is chosen when the row is queued, before any node claims it.
    expect(row.wid).toBeTruthy();
    await eventually(async () => onA.sent.length === sentBefore + 1);
    expect(onA.sent.at(-1)?.options?.messageId).toBe(row.wid);

    // A dies after WhatsApp took the message but before marking the row sent: the row is claimed and
    // pending; its claim and A's lease expire; B takes the session over and its sweep retries the row.
    await a.db.update(messages).set({ sendStatus: 'pending', nextAttemptAt: sql`now() - interval '1 second'` }).where(eq(messages.id, row.id));
    await a.db.update(whatsappSessionLeases).set({ expiresAt: sql`now() - interval '1 second'` });
    await wa(a).dropLocal(connection.id);
    await wa(b).takeOver(connection.id);
    const onB = sockets.b.last();
    await onB.emit('connection.update', { connection: 'open' });
    await eventually(async () => (await sweepOutbox(b.app.ctx)) >= 0 && onB.sent.some((m) => m.options?.messageId === row.wid));
    // The same id both times: WhatsApp keys a message by (chat, id, fromMe), so the customer sees it once.
    expect(onB.sent.filter((m) => m.options?.messageId === row.wid)).toHaveLength(1);
    await eventually(async () => (await a.db.select().from(messages).where(eq(messages.id, row.id)))[0]?.sendStatus === 'sent');
    // Marked sent: no later sweep on either node sends it again.
    await sweepOutbox(b.app.ctx);
    await sweepOutbox(a.app.ctx);
    expect(onB.sent.filter((m) => m.options?.messageId === row.wid)).toHaveLength(1);
  });
});
