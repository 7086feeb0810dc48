import type { IncomingMessage, ServerResponse } from 'node:http';
import { maskContactNumber, type AppMessageEventPayload, type Ticket, type TicketEventPayload } from '@balcao/contracts';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createCompanyWithAdmin, createTestApp, login, nextEvent, sleep, type LoggedIn, type TestApp } from '../../test/helpers.js';
import { createConnection, eventually } from '../../test/connections.js';
import { FakeGraph } from '../../test/fakes/graph-server.js';
import { messengerText, metaEnv, postWebhook } from '../../test/fakes/meta-webhook.js';
import { createPlainUser, listen, openSocket } from '../../test/roles.js';
import { setCompanySettings } from '../../test/tickets.js';
import { subscribedEvents } from '../modules/webhooks/subscriptions.js';
import { textFrame } from './together.js';

/**
 * A new message's `ticket` update and `appMessage` create reach each websocket in ONE write
 * (realtime/together.ts), the update first, each audience with its own LGPD mask; a long-polling
 * socket gets them one by one; a ticket update waiting for its message never gets lost or overtaken.
 * The pairs of one publication (a lane batch's messages) reach each websocket in ONE write too,
 * each socket only its own audiences' pairs, in order; nothing waits past the publication.
 */

let t: TestApp;
let graph: FakeGraph;
let port: number;
let companyId: number;
let pageId: string;
let apiToken: string;
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
  const connection = await createConnection(t.db, companyId);
  pageId = connection.facebookPageId!;
  apiToken = connection.token!;
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

type ServerPacket = { data?: string; options?: { wsPreEncodedFrame?: Buffer[] } };
/** Calls `seen` with each engine.io packet the server creates for this client's socket (`packetCreate`: one per write to the transport). */
function watchPackets(client: Socket, seen: (packet: ServerPacket) => void): void {
  t.app.ctx.realtime.io.of(`/${companyId}`).sockets.get(client.id!)!.conn.on('packetCreate', seen);
}
function serverPackets(client: Socket): ServerPacket[] {
  const packets: ServerPacket[] = [];
  watchPackets(client, (p) => packets.push(p));
  return packets;
}

/** The `appMessage` create of the message with `body`. */
const createOf = (heard: Heard, body: string) =>
  heard
    .filter((h) => h.name === `company-${companyId}-appMessage`)
    .map((h) => h.payload as AppMessageEventPayload)
    .find((p): p is Created => p.action === 'create' && p.message.body === body);
type Created = Extract<AppMessageEventPayload, { action: 'create' }>;

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
    const adminPackets = serverPackets(adminWs);

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

    // One engine.io packet to the admin's websocket carried the new customer's contact, then both frames, the update first.
    expect(packetsWith(adminPackets, pairEvents([ticketId]))).toEqual([['contact create', `ticket ${ticketId}`, `appMessage ${ticketId}`]]);
  });

  it('a ticket update waiting for its message goes out alone when none follows, and before every later event', async () => {
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

/** The events a packet carries, frame by frame (RFC 6455 §5.2, unmasked text frames): `ticket 12`, `appMessage 12`, `contact delete`. */
function wireEvents(packet: ServerPacket): string[] {
  const frames = packet.options?.wsPreEncodedFrame;
  if (!frames) return packet.data ? [describeEvent(packet.data)] : [];
  const wire = Buffer.concat(frames);
  const out: string[] = [];
  for (let at = 0; at < wire.length; ) {
    const marker = wire[at + 1]! & 0x7f;
    const [head, n] = marker < 126 ? [2, marker] : marker === 126 ? [4, wire.readUInt16BE(at + 2)] : [10, Number(wire.readBigUInt64BE(at + 2))];
    out.push(describeEvent(wire.subarray(at + head, at + head + n).toString()));
    at += head + n;
  }
  return out;
}
/** `[4]2/{companyId},["company-{id}-ticket",{…}]` as `ticket 12` (`appMessage 12`, `contact delete`). */
function describeEvent(encoded: string): string {
  const json = /^4?2\/\d+,(\[.*)$/s.exec(encoded)?.[1];
  if (!json) return encoded;
  const [name, payload] = JSON.parse(json) as [string, { action?: string; ticket?: { id: number } } | null];
  const short = name.replace(`company-${companyId}-`, '');
  return payload?.ticket ? `${short} ${payload.ticket.id}` : `${short} ${payload?.action}`;
}
/** What `heard` got of these tickets (and of the contact 987654), in the same notation. */
const heardOf = (heard: Heard, ticketIds: number[]) =>
  heard.flatMap(({ name, payload }) => {
    const p = payload as { action: string; ticket?: { id: number }; contactId?: number };
    const short = name.replace(`company-${companyId}-`, '');
    if (p.ticket && ticketIds.includes(p.ticket.id)) return [`${short} ${p.ticket.id}`];
    return p.contactId === 987654 ? [`${short} ${p.action}`] : [];
  });
/** The packets that carry one or more of `events`, as their events. */
const packetsWith = (packets: ServerPacket[], events: string[]) => packets.map(wireEvents).filter((carried) => carried.some((e) => events.includes(e)));
const pairEvents = (ticketIds: number[]) => ticketIds.flatMap((id) => [`ticket ${id}`, `appMessage ${id}`]);

describe('the message pairs of one publication', () => {
  type Pair = { ticket: Ticket; message: Created };
  const pairs: Pair[] = [];
  /** One turn's publications, the way a lane batch announces its messages: one pair after the other. */
  async function publishPairs(list: Pair[], between?: () => Promise<void>): Promise<void> {
    // Its company's webhook endpoints from memory (a read in the middle would end the turn: the pairs would still be right, in two writes).
    await subscribedEvents(t.app.ctx.db, companyId);
    for (const [i, { ticket, message }] of list.entries()) {
      if (i === 1 && between) await between();
      await t.app.ctx.events.publish({ type: 'ticket.updated', ticket, hidesNumbers: true }, { type: 'message.created', message: message.message, ticket, hidesNumbers: true });
    }
  }

  beforeAll(async () => {
    const adminWs = await open(admin);
    const heard = record(adminWs);
    for (const n of [1, 2, 3]) {
      const res = await postWebhook(t.app, messengerText(pageId, `551190000330${n}`, `m_batch_${n}`, `lote ${n}`));
      expect(res.statusCode).toBe(200);
      const created = await eventually(async () => createOf(heard, `lote ${n}`));
      pairs.push({ ticket: created.ticket, message: created });
    }
    // The second one is the plain user's, in a queue the allTicket viewer is not in: its audience is the admins and the plain user.
    pairs[1]!.ticket = { ...pairs[1]!.ticket, userId: plain.user.id, queueId: 999_999, status: 'open' };
  });

  it('reach each websocket in one write, its audiences\' pairs only, in the order published, before the turn ends', async () => {
    const [a, b, c] = pairs.map((p) => p.ticket.id) as [number, number, number];
    const ws = { admin: await open(admin), viewer: await open(allTicket), plain: await open(plain) };
    const heard = { admin: record(ws.admin), viewer: record(ws.viewer), plain: record(ws.plain) };
    const packets = { admin: serverPackets(ws.admin), viewer: serverPackets(ws.viewer), plain: serverPackets(ws.plain) };

    await publishPairs(pairs);
    // The end of the publication: written by then, not at a later turn (timer, setImmediate).
    await new Promise((resolve) => process.nextTick(resolve));
    const ours = pairEvents([a, b, c]);
    const written = { admin: packetsWith(packets.admin, ours), viewer: packetsWith(packets.viewer, ours), plain: packetsWith(packets.plain, ours) };
    expect(written.admin).toEqual([[`ticket ${a}`, `appMessage ${a}`, `ticket ${b}`, `appMessage ${b}`, `ticket ${c}`, `appMessage ${c}`]]);
    expect(written.viewer).toEqual([[`ticket ${a}`, `appMessage ${a}`, `ticket ${c}`, `appMessage ${c}`]]);
    expect(written.plain).toEqual([[`ticket ${b}`, `appMessage ${b}`]]);

    await eventually(async () => heardOf(heard.admin, [a, b, c]).length === 6 && heardOf(heard.viewer, [a, b, c]).length === 4 && heardOf(heard.plain, [a, b, c]).length === 2);
    await sleep(100);
    expect(heardOf(heard.admin, [a, b, c])).toEqual(written.admin[0]);
    expect(heardOf(heard.viewer, [a, b, c])).toEqual(written.viewer[0]);
    expect(heardOf(heard.plain, [a, b, c])).toEqual(written.plain[0]);
    // Masked as before: the viewer's pairs carry the hidden number, the admin's the number.
    const viewerCreate = heard.viewer.find((h) => h.name === `company-${companyId}-appMessage`)!.payload as Created;
    expect(viewerCreate.contact.number).toBe(maskContactNumber(pairs[0]!.message.contact).number);
    expect(createOf(heard.admin, 'lote 1')!.contact.number).toBe(pairs[0]!.message.contact.number);
  });

  it('another emit in the middle of the publication sends what waits first: each socket hears the events in the order published', async () => {
    const [a, , c] = pairs.map((p) => p.ticket.id) as [number, number, number];
    const ws = await open(admin);
    const heard = record(ws);
    const packets = serverPackets(ws);

    await publishPairs([pairs[0]!, pairs[2]!], () => t.app.ctx.events.publish({ type: 'contact.deleted', companyId, contactId: 987654 }));
    await new Promise((resolve) => process.nextTick(resolve));
    const written = packetsWith(packets, [...pairEvents([a, c]), 'contact delete']);
    expect(written).toEqual([[`ticket ${a}`, `appMessage ${a}`], ['contact delete'], [`ticket ${c}`, `appMessage ${c}`]]);
    await eventually(async () => heardOf(heard, [a, c]).length === 5);
    expect(heardOf(heard, [a, c])).toEqual(written.flat());
  });

  it('an HTTP answer never overtakes the events its request published', async () => {
    const ws = await open(admin);
    // What the server hands the admin's websocket and the answer's head, in order.
    const order: string[][] = [];
    watchPackets(ws, (p) => order.push(wireEvents(p)));
    // After the app's own listeners: notes the answer once its head is written.
    const noteAnswer = (req: IncomingMessage, res: ServerResponse) => {
      if (req.url !== '/api/messages/send') return;
      const inner = res.writeHead;
      res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
        const out = inner.apply(this, args);
        order.push(['answer']);
        return out;
      } as ServerResponse['writeHead'];
    };
    t.app.server.on('request', noteAnswer);
    try {
      // The external API's send to a new number answers right after announcing the message, in the same turn.
      const res = await fetch(`http://127.0.0.1:${port}/api/messages/send`, {
        method: 'POST',
        headers: { ...bearer(apiToken), 'content-type': 'application/json' },
        body: JSON.stringify({ number: '5511900004444', body: 'pela API' }),
      });
      const answer = (await res.json()) as { ticketId: number };
      expect(res.status).toBe(200);
      const events = order.findIndex((carried) => carried.includes(`appMessage ${answer.ticketId}`));
      expect(events).toBeGreaterThan(-1);
      expect(events).toBeLessThan(order.findIndex((carried) => carried[0] === 'answer'));
    } finally {
      t.app.server.off('request', noteAnswer);
    }
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
