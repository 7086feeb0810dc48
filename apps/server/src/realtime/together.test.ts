import { maskContactNumber, type AppMessageEventPayload, type Ticket, type TicketEventPayload } from '@balcao/contracts';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createCompanyWithAdmin, createTestApp, login, nextEvent, sleep, type LoggedIn, type TestApp } from '../../test/helpers.js';
import { createConnection, eventually } from '../../test/connections.js';
import { FakeGraph } from '../../test/fakes/graph-server.js';
import { messengerText, metaEnv, postWebhook } from '../../test/fakes/meta-webhook.js';
import { createPlainUser, listen, openSocket } from '../../test/roles.js';
import { setCompanySettings } from '../../test/tickets.js';
import { textFrame } from './together.js';

/**
 * A new message's `ticket` update and `appMessage` create reach each websocket in ONE write
 * (realtime/together.ts), the update first, each audience with its own LGPD mask; a long-polling
 * socket gets them one by one; a ticket update held for its message never gets lost or overtaken.
 */

let t: TestApp;
let graph: FakeGraph;
let port: number;
let companyId: number;
let pageId: string;
let admin: LoggedIn;
let allTicket: LoggedIn;
let plain: LoggedIn;
const sockets: Socket[] = [];

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), LOGIN_MAX_PER_IP: '1000', LOGIN_MAX_PER_EMAIL: '1000' });
  port = await listen(t);
  const own = await createCompanyWithAdmin(t.db);
  companyId = own.company.id;
  pageId = (await createConnection(t.db, companyId)).facebookPageId!;
  await setCompanySettings(t.db, companyId, { lgpdHideNumber: 'enabled' });
  admin = await login(t.app, own.email, own.password);
  allTicket = await createPlainUser(t, companyId, { allTicket: 'enabled' });
  plain = await createPlainUser(t, companyId);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
  await graph.close();
});

type Heard = { name: string; payload: unknown }[];
/** Every event a socket receives, in order. */
function record(socket: Socket): Heard {
  const heard: Heard = [];
  socket.onAny((name: string, payload: unknown) => heard.push({ name, payload }));
  return heard;
}

async function open(session: LoggedIn, transports = ['websocket']): Promise<Socket> {
  if (transports[0] === 'websocket') return track(await openSocket(port, session));
  const socket = io(`http://127.0.0.1:${port}/${companyId}`, {
    query: { userId: String(session.user.id), token: `Bearer ${session.token}` },
    transports,
    reconnection: false,
    forceNew: true,
  });
  await nextEvent(socket, 'connect');
  await sleep(100);
  return track(socket);
}
const track = (s: Socket) => (sockets.push(s), s);

/** The server's engine.io packets to `user`'s socket(s) (`packetCreate`: one per write to the transport). */
function serverPackets(userId: number): { data?: string; options?: { wsPreEncodedFrame?: Buffer[] } }[] {
  const packets: { data?: string; options?: { wsPreEncodedFrame?: Buffer[] } }[] = [];
  for (const socket of t.app.ctx.realtime.io.of(`/${companyId}`).sockets.values()) {
    if ((socket.data as { user?: { id: number } }).user?.id === userId) socket.conn.on('packetCreate', (p: (typeof packets)[number]) => packets.push(p));
  }
  return packets;
}

/** The `appMessage` create of the message with `body`. */
const createOf = (heard: Heard, body: string) =>
  heard
    .filter((h) => h.name === `company-${companyId}-appMessage`)
    .map((h) => h.payload as AppMessageEventPayload)
    .find((p) => p.action === 'create' && p.message.body === body);

/** This ticket's `ticket` and `appMessage` events, in the order the socket got them. */
const ofTicket = (heard: Heard, ticketId: number) =>
  heard.flatMap(({ name, payload }) => {
    if (name === `company-${companyId}-ticket`) {
      const p = payload as TicketEventPayload;
      return p.action === 'update' && p.ticket.id === ticketId ? [{ kind: 'ticket', contact: p.ticket.contact }] : [];
    }
    if (name === `company-${companyId}-appMessage`) {
      const p = payload as AppMessageEventPayload;
      return p.action === 'create' && p.ticket.id === ticketId ? [{ kind: 'appMessage', contact: p.contact }] : [];
    }
    return [];
  });

describe('a new message to many sockets', () => {
  it('reaches each websocket as its ticket update then its create in one write, each audience masked as before; long-polling gets both in order', async () => {
    const adminWs = await open(admin);
    const viewerWs = await open(allTicket);
    const viewerPolling = await open(allTicket, ['polling']);
    const outsider = await open(plain);
    const heard = { admin: record(adminWs), viewer: record(viewerWs), polling: record(viewerPolling), outsider: record(outsider) };
    const adminPackets = serverPackets(admin.user.id);

    const res = await postWebhook(t.app, messengerText(pageId, '5511900001111', 'm_together_1', 'juntos'));
    expect(res.statusCode).toBe(200);
    const created = await eventually(async () => createOf(heard.admin, 'juntos'));
    if (created.action !== 'create') throw new Error('unreachable');
    const ticketId = created.ticket.id;
    await eventually(async () => ofTicket(heard.polling, ticketId).length === 2 && ofTicket(heard.viewer, ticketId).length === 2);
    await sleep(200);

    const number = created.contact.number;
    const masked = maskContactNumber(created.contact).number;
    expect(masked).not.toBe(number);
    for (const [who, shown] of [['admin', number], ['viewer', masked], ['polling', masked]] as const) {
      const events = ofTicket(heard[who], ticketId);
      expect(events.map((e) => e.kind), who).toEqual(['ticket', 'appMessage']);
      for (const e of events) expect(e.contact.number, who).toBe(shown);
    }
    expect(ofTicket(heard.outsider, ticketId)).toEqual([]);

    // One engine.io packet to the admin's websocket carried both frames, the update first.
    const carrying = adminPackets.filter((p) => /-(ticket|appMessage)"/.test(p.data ?? ''));
    expect(carrying).toHaveLength(1);
    const wire = Buffer.concat(carrying[0]!.options!.wsPreEncodedFrame!).toString();
    expect(wire.indexOf(`company-${companyId}-ticket`)).toBeGreaterThan(-1);
    expect(wire.indexOf(`company-${companyId}-appMessage`)).toBeGreaterThan(wire.indexOf(`company-${companyId}-ticket`));
  });

  it('a ticket update held for its message goes out alone when none follows, and before any later event', async () => {
    const adminWs = await open(admin);
    const heard = record(adminWs);
    const res = await postWebhook(t.app, messengerText(pageId, '5511900002222', 'm_together_2', 'só o ticket'));
    expect(res.statusCode).toBe(200);
    const created = await eventually(async () => createOf(heard, 'só o ticket'));
    if (created.action !== 'create') throw new Error('unreachable');
    const ticket = (await t.app.inject({ method: 'GET', url: `/tickets/${created.ticket.id}`, headers: bearer(admin.token) })).json<Ticket>();
    heard.length = 0;

    // The pipeline's pair head (presented, with the LGPD flag), then something else: nothing overtakes it.
    await t.app.ctx.events.publish({ type: 'ticket.updated', ticket, hidesNumbers: true }, { type: 'contact.deleted', companyId, contactId: 987654 });
    // Alone: it leaves at the end of the publication.
    await t.app.ctx.events.publish({ type: 'ticket.updated', ticket: { ...ticket, lastMessage: 'sozinho' }, hidesNumbers: true });
    // Only what this test published (the webhook's own contact and picture events may still come).
    const mine = () =>
      heard.flatMap(({ name, payload }) => {
        const p = payload as { action: string; ticket?: Ticket; contactId?: number };
        if (name === `company-${companyId}-ticket` && p.ticket?.id === ticket.id) return [[p.action, p.ticket.lastMessage]];
        if (name === `company-${companyId}-contact` && p.contactId === 987654) return [[p.action]];
        return [];
      });
    await eventually(async () => mine().length >= 3);
    await sleep(100);
    expect(mine()).toEqual([['update', ticket.lastMessage], ['delete'], ['update', 'sozinho']]);
  });
});

describe('textFrame', () => {
  it('encodes the three RFC 6455 payload lengths', () => {
    for (const [n, headLength, marker] of [
      [125, 2, 125],
      [126, 4, 126],
      [70_000, 10, 127],
    ] as const) {
      const frame = textFrame(Buffer.alloc(n, 'x'));
      expect(frame[0]).toBe(0x81);
      expect(frame[1]).toBe(marker);
      expect(frame.length).toBe(headLength + n);
      if (marker === 126) expect(frame.readUInt16BE(2)).toBe(n);
      if (marker === 127) expect(Number(frame.readBigUInt64BE(2))).toBe(n);
    }
  });
});
