import type { AppMessageEventPayload } from '@balcao/contracts';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, sleep, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { eventually } from '../../../test/connections.js';
import { createAdminTestApp, listen, openSocket } from '../../../test/roles.js';
import { emitMessageCreate, emitTicketUpdate } from '../conversations/emit.js';
import { messages, tickets } from '../../db/schema/index.js';
import { ROOMS } from '../../realtime/server.js';
import { LABELS, seedInbox, setTicket, type InboxFixture, type Label } from '../../../test/inbox-seed.js';
import { loadTicket } from './queries.js';
import { canSeeTicket, loadViewer, visibleTicketsWhere } from './visibility.js';

let t: TestApp;
let f: InboxFixture;
let port: number;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await createAdminTestApp();
  f = await seedInbox(t);
  port = await listen(t);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

describe('one rule in two forms', () => {
  it('visibleTicketsWhere (SQL) selects exactly the tickets canSeeTicket accepts, for every kind of user', async () => {
    const all = await t.db.select().from(tickets);
    for (const session of [f.admin, f.none, f.allTicket, f.allHistoric, f.allUserChat, f.other.admin]) {
      const viewer = await loadViewer(t.db, session.user);
      const bySql = (await t.db.select({ id: tickets.id }).from(tickets).where(visibleTicketsWhere(viewer))).map((r) => r.id).sort();
      const byJs = all.filter((row) => row.companyId === viewer.companyId && canSeeTicket(viewer, row)).map((r) => r.id).sort();
      expect(bySql, session.user.email).toEqual(byJs);
    }
  });

  it('the plain user sees their own tickets, and unassigned tickets of their queues only', async () => {
    const viewer = await loadViewer(t.db, f.none.user);
    const seen = LABELS.filter((l) => canSeeTicket(viewer, f.tickets[l]));
    expect(seen).toEqual(['T1', 'T4', 'T7', 'T11'] satisfies Label[]);
  });
});

describe('joinChatBox', () => {
  const join = (socket: Socket, event: string, ref: unknown) => socket.emitWithAck(event, ref) as Promise<{ ok?: true; error?: string }>;
  const roomMembers = async (ticketId: number) => (await t.app.ctx.realtime.io.of(`/${f.companyId}`).in(ROOMS.ticket(ticketId)).fetchSockets()).length;
  async function sendMessage(label: Label, body: string) {
    const row = f.tickets[label];
    const [message] = await t.db.insert(messages).values({ companyId: row.companyId, ticketId: row.id, body }).returning();
    await emitMessageCreate(t.app.ctx, message!.id, (await loadTicket(t.db, row.id))!);
  }
  async function socketOf(session: LoggedIn) {
    const socket = await openSocket(port, session);
    sockets.push(socket);
    return socket;
  }

  it('refuses a ticket the user may not see: no room, none of its messages', async () => {
    const socket = await socketOf(f.none);
    const heard = collect<AppMessageEventPayload>(socket, `company-${f.companyId}-appMessage`);
    // T3: another user's ticket in a queue the user lacks.
    expect(await join(socket, 'joinChatBox', f.tickets.T3.id)).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await join(socket, 'joinChatBox', f.tickets.T3.uuid)).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await roomMembers(f.tickets.T3.id)).toBe(0);
    await sendMessage('T3', 'not for you');
    await sleep(200);
    expect(heard).toEqual([]);
    expect(await join(socket, 'joinChatBox', 'nonsense')).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
  });

  it('refuses another company’s ticket', async () => {
    const socket = await socketOf(f.other.admin);
    expect(await join(socket, 'joinChatBox', f.tickets.T1.id)).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    expect(await join(socket, 'joinChatBox', f.tickets.T1.uuid)).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
  });

  it('joins a visible ticket by id or uuid, delivers its messages, and leaves on joinChatBoxLeave', async () => {
    const socket = await socketOf(f.none);
    const heard = collect<AppMessageEventPayload>(socket, `company-${f.companyId}-appMessage`);
    expect(await join(socket, 'joinChatBox', String(f.tickets.T4.id))).toEqual({ ok: true });
    expect(await join(socket, 'joinChatBox', f.tickets.T1.uuid)).toEqual({ ok: true });
    expect(await roomMembers(f.tickets.T4.id)).toBe(1);
    expect(await roomMembers(f.tickets.T1.id)).toBe(1);
    await sendMessage('T4', 'hello');
    await eventually(async () => heard.some((p) => p.action === 'create' && p.message.body === 'hello'));
    expect(await join(socket, 'joinChatBoxLeave', f.tickets.T1.uuid)).toEqual({ ok: true });
    expect(await roomMembers(f.tickets.T1.id)).toBe(0);
    expect(await join(socket, 'joinChatBoxLeave', f.tickets.T4.id)).toEqual({ ok: true });
    expect(await roomMembers(f.tickets.T4.id)).toBe(0);
  });

  it('a ticket moved out of the user’s sight drops them from its room', async () => {
    const socket = await socketOf(f.none);
    const heard = collect<AppMessageEventPayload>(socket, `company-${f.companyId}-appMessage`);
    expect(await join(socket, 'joinChatBox', f.tickets.T4.id)).toEqual({ ok: true });
    await setTicket(t, f.tickets.T4.id, { queueId: f.q2 });
    await emitTicketUpdate(t.app.ctx, f.tickets.T4.id);
    await eventually(async () => (await roomMembers(f.tickets.T4.id)) === 0);
    await sendMessage('T4', 'moved away');
    await sleep(200);
    expect(heard.filter((p) => p.action === 'create' && p.message.body === 'moved away')).toEqual([]);
    await setTicket(t, f.tickets.T4.id, { queueId: f.q1 });
  });
});
