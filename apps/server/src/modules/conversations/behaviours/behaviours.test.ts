import type { Ticket, TicketLog } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companySettings, queues, ticketLogs, ticketRatings, tickets } from '../../../db/schema/index.js';
import { closeTicket } from '../commands/tickets.js';
import { bearer, collect, createCompanyWithAdmin, createTestApp, login, sleep, type LoggedIn, type TestApp } from '../../../../test/helpers.js';
import { outgoingOf } from '../../../../test/customer.js';
import { listen, openSocket } from '../../../../test/roles.js';
import { createQueue } from '../../../../test/tickets.js';
import { createConnection, eventually } from '../../../../test/connections.js';
import { FakeGraph } from '../../../../test/fakes/graph-server.js';
import { metaEnv } from '../../../../test/fakes/meta-webhook.js';
import type { Connection } from '../../../channels/adapter.js';
import type { InboundMessage } from '../../../channels/inbound-event.js';
import { processInbound } from '../inbound.js';
import { isOnVacation, isWithinHours } from './hours.js';
import { fillVariables } from '../../messages/variables.js';
import { runTicketTimers } from './timers.js';

let t: TestApp;
let graph: FakeGraph;
let companyId: number;
let admin: LoggedIn;
let seq = 0;

const ALL_DAY = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((d) => ({
  weekday: d,
  weekdayEn: d as 'monday',
  startTimeA: '00:00',
  endTimeA: '23:59',
  startTimeB: '',
  endTimeB: '',
}));

/** A customer's text on the connection, as any adapter hands it to the pipeline. */
async function customerSays(conn: Connection, number: string, body: string) {
  seq += 1;
  const event: InboundMessage = {
    kind: 'message',
    wid: `m_behaviour_${seq}`,
    fromMe: false,
    body,
    mediaType: 'chat',
    at: new Date(),
    chat: { number, name: 'Maria Silva', remoteJid: number, isGroup: false },
    raw: {},
  };
  const result = await processInbound(t.app.ctx, conn, event);
  if (result.outcome !== 'stored') throw new Error(`not stored: ${result.outcome}`);
  return result.ticketId;
}

const outgoing = (ticketId: number) => outgoingOf(t.db, ticketId);
const ticketOf = async (id: number) => (await t.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
const newConnection = (over: Partial<Connection> = {}, queueIds: number[] = []) => createConnection(t.db, companyId, over, queueIds);

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp(metaEnv(graph.url));
  const created = await createCompanyWithAdmin(t.db);
  companyId = created.company.id;
  admin = await login(t.app, created.email, created.password);
});

afterAll(async () => {
  await t.close();
  await graph.close();
});

describe('message variables and hours', () => {
  it('fills the spec variables', () => {
    const now = new Date(2025, 5, 15, 9, 5, 7);
    expect(fillVariables('{{ms}}, {{firstName}}! Protocolo {{protocol}} – {{connection}} / {{queue}} {{unknown}}', { contactName: 'Maria Silva', ticketId: 42, connectionName: 'Loja', queueName: 'Vendas' }, now)).toBe(
      'Bom dia, Maria! Protocolo 2025061509050742 – Loja / Vendas {{unknown}}',
    );
  });

  it('reads two periods a day and a whole vacation end day', () => {
    const monday10 = new Date(2025, 5, 16, 10, 0);
    const week = [{ weekday: 'Segunda', weekdayEn: 'monday' as const, startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' }];
    expect(isWithinHours(week, monday10)).toBe(true);
    expect(isWithinHours(week, new Date(2025, 5, 16, 12, 30))).toBe(false);
    expect(isWithinHours(week, new Date(2025, 5, 17, 10, 0))).toBe(false);
    expect(isWithinHours([], monday10)).toBe(true);
    expect(isOnVacation(new Date('2025-06-10T00:00:00Z'), new Date('2025-06-16T00:00:00Z'), new Date('2025-06-16T20:00:00Z'))).toBe(true);
    expect(isOnVacation(new Date('2025-06-10T00:00:00Z'), new Date('2025-06-16T00:00:00Z'), new Date('2025-06-17T01:00:00Z'))).toBe(false);
  });
});

describe('inbound behaviours', () => {
  it('greets a new ticket once, in the connection’s only queue', async () => {
    const [queue] = await t.db.insert(queues).values({ companyId, name: 'Vendas', color: '#00AA00' }).returning();
    const conn = await newConnection({ greetingMessage: 'Olá {{firstName}}, bem-vinda!' }, [queue!.id]);
    const ticketId = await customerSays(conn, '3000001', 'Oi');
    const [greeting] = await eventually(async () => {
      const rows = await outgoing(ticketId);
      return rows.length ? rows : undefined;
    });
    expect(greeting!.body).toBe('Olá Maria, bem-vinda!');
    expect((await ticketOf(ticketId)).queueId).toBe(queue!.id);
    await eventually(async () => (await outgoing(ticketId))[0]?.sendStatus === 'sent');
    await customerSays(conn, '3000001', 'Tudo bem?');
    await sleep(150);
    expect(await outgoing(ticketId)).toHaveLength(1);
  });

  it('answers out of hours by the connection’s schedule (scheduleType = connection) instead of greeting', async () => {
    await t.db.update(companySettings).set({ scheduleType: 'connection' }).where(eq(companySettings.companyId, companyId));
    try {
      const closedAllWeek = ALL_DAY.map((d) => ({ ...d, startTimeA: '', endTimeA: '' }));
      const conn = await newConnection({ greetingMessage: 'Olá!', outOfHoursMessage: 'Estamos fechados.', schedules: closedAllWeek });
      const ticketId = await customerSays(conn, '3000002', 'Oi');
      await customerSays(conn, '3000002', 'Alguém?');
      await sleep(200);
      expect((await outgoing(ticketId)).map((m) => m.body)).toEqual(['Estamos fechados.']);

      const open = await newConnection({ greetingMessage: 'Olá!', outOfHoursMessage: 'Estamos fechados.', schedules: ALL_DAY });
      const other = await customerSays(open, '3000003', 'Oi');
      await eventually(async () => (await outgoing(other)).length === 1);
      expect((await outgoing(other))[0]!.body).toBe('Olá!');
    } finally {
      await t.db.update(companySettings).set({ scheduleType: 'disabled' }).where(eq(companySettings.companyId, companyId));
    }
  });

  it('sends the collective vacation message once during the vacation', async () => {
    const conn = await newConnection({
      greetingMessage: 'Olá!',
      collectiveVacationMessage: 'Em férias coletivas.',
      collectiveVacationStart: new Date(Date.now() - 86400e3),
      collectiveVacationEnd: new Date(Date.now() + 86400e3),
    });
    const ticketId = await customerSays(conn, '3000004', 'Oi');
    await customerSays(conn, '3000004', 'Oi de novo');
    await sleep(200);
    expect((await outgoing(ticketId)).map((m) => m.body)).toEqual(['Em férias coletivas.']);
  });

  it('reopens a ticket closed within timeCreateNewTicket, and opens a new one after it', async () => {
    const conn = await newConnection({ timeCreateNewTicket: 10 });
    const first = await customerSays(conn, '3000005', 'Oi');
    await t.db.update(tickets).set({ status: 'closed', closedAt: new Date() }).where(eq(tickets.id, first));
    expect(await customerSays(conn, '3000005', 'Esqueci uma coisa')).toBe(first);
    expect((await ticketOf(first)).status).toBe('pending');
    await t.db.update(tickets).set({ status: 'closed', closedAt: new Date(Date.now() - 3600e3) }).where(eq(tickets.id, first));
    expect(await customerSays(conn, '3000005', 'Oi, amanhã')).not.toBe(first);
  });
});

describe('closing, rating and farewell', () => {
  it('closes with the farewell when no rating message is set', async () => {
    const conn = await newConnection({ complationMessage: 'Obrigado, {{name}}!' });
    const ticketId = await customerSays(conn, '3000010', 'Oi');
    await closeTicket(t.app.ctx, { companyId, ticketId });
    expect(await ticketOf(ticketId)).toMatchObject({ status: 'closed' });
    expect((await outgoing(ticketId)).map((m) => m.body)).toEqual(['Obrigado, Maria Silva!']);
  });

  it('asks for a 0–10 rating, re-asks on nonsense, stores the answer and says goodbye', async () => {
    const conn = await newConnection({ ratingMessage: 'De 0 a 10, que nota você dá?', complationMessage: 'Até logo!', expiresTicketNPS: 30, maxUseBotQueuesNPS: 3 });
    const ticketId = await customerSays(conn, '3000011', 'Oi');
    await closeTicket(t.app.ctx, { companyId, ticketId });
    expect((await ticketOf(ticketId)).status).toBe('nps');

    await customerSays(conn, '3000011', 'ótimo atendimento');
    await eventually(async () => (await outgoing(ticketId)).length === 2);
    await customerSays(conn, '3000011', ' 9 ');
    await eventually(async () => (await ticketOf(ticketId)).status === 'closed');
    const [rating] = await t.db.select().from(ticketRatings).where(eq(ticketRatings.ticketId, ticketId));
    expect(rating!.rate).toBe(9);
    expect((await outgoing(ticketId)).map((m) => m.body)).toEqual(['De 0 a 10, que nota você dá?', 'De 0 a 10, que nota você dá?', 'Até logo!']);
  });

  it('closes a rating exchange after maxUseBotQueuesNPS invalid answers', async () => {
    const conn = await newConnection({ ratingMessage: 'Nota?', expiresTicketNPS: 30, maxUseBotQueuesNPS: 2 });
    const ticketId = await customerSays(conn, '3000012', 'Oi');
    await closeTicket(t.app.ctx, { companyId, ticketId });
    await customerSays(conn, '3000012', 'não sei');
    await sleep(100);
    await customerSays(conn, '3000012', '11');
    await eventually(async () => (await ticketOf(ticketId)).status === 'closed');
    expect(await t.db.select().from(ticketRatings).where(eq(ticketRatings.ticketId, ticketId))).toEqual([]);
  });
});

describe('ticket timers', () => {
  it('sends the inactivity message once, then expires the ticket with its closing message', async () => {
    const conn = await newConnection({ timeInactiveMessage: 5, inactiveMessage: 'Ainda está aí?', expiresTicket: 30, whenExpiresTicket: '1', expiresInactiveMessage: 'Encerrado por inatividade.' });
    const ticketId = await customerSays(conn, '3000020', 'Oi');
    await t.db.update(tickets).set({ status: 'open', lastMessageFromMe: true, lastMessageAt: new Date(Date.now() - 10 * 60e3) }).where(eq(tickets.id, ticketId));

    await runTicketTimers(t.app.ctx);
    await runTicketTimers(t.app.ctx);
    expect((await outgoing(ticketId)).map((m) => m.body)).toEqual(['Ainda está aí?']);
    expect((await ticketOf(ticketId)).status).toBe('open');

    await t.db.update(tickets).set({ lastMessageAt: new Date(Date.now() - 40 * 60e3) }).where(eq(tickets.id, ticketId));
    await runTicketTimers(t.app.ctx);
    expect((await ticketOf(ticketId)).status).toBe('closed');
    expect((await outgoing(ticketId)).map((m) => m.body)).toEqual(['Ainda está aí?', 'Encerrado por inatividade.']);
  });

  it('with whenExpiresTicket 1, does not expire a ticket whose last message is the customer’s', async () => {
    const conn = await newConnection({ expiresTicket: 30, whenExpiresTicket: '1' });
    const ticketId = await customerSays(conn, '3000021', 'Oi');
    await t.db.update(tickets).set({ lastMessageAt: new Date(Date.now() - 60 * 60e3) }).where(eq(tickets.id, ticketId));
    await runTicketTimers(t.app.ctx);
    expect((await ticketOf(ticketId)).status).toBe('pending');
  });

  it('moves a pending ticket nobody accepted for timeSendQueue minutes to sendIdQueue, once, logged redirect', async () => {
    const first = (await createQueue(t.db, companyId, 'Triagem')).id;
    const overflow = (await createQueue(t.db, companyId, 'Plantão')).id;
    const conn = await newConnection({ timeSendQueue: 10, sendIdQueue: overflow }, [first]);
    const waiting = await customerSays(conn, '3000023', 'Oi');
    const taken = await customerSays(conn, '3000024', 'Oi');
    await t.db.update(tickets).set({ queueId: first }).where(eq(tickets.id, waiting));
    await t.db.update(tickets).set({ queueId: first, status: 'open', userId: admin.user.id }).where(eq(tickets.id, taken));
    const logsOf = async (id: number) => (await t.app.inject({ method: 'GET', url: `/tickets-log/${id}`, headers: bearer(admin.token) })).json<TicketLog[]>();

    await runTicketTimers(t.app.ctx);
    expect((await ticketOf(waiting)).queueId).toBe(first);

    // A customer message is no transition: only the time since the last one counts.
    const ago = new Date(Date.now() - 20 * 60e3);
    for (const id of [waiting, taken]) {
      await t.db.update(tickets).set({ createdAt: ago }).where(eq(tickets.id, id));
      await t.db.update(ticketLogs).set({ createdAt: ago }).where(eq(ticketLogs.ticketId, id));
    }
    await customerSays(conn, '3000023', 'Alguém aí?');
    const socket = await openSocket(await listen(t), admin);
    const events = collect<{ action: string; ticket?: Ticket }>(socket, `company-${companyId}-ticket`);
    try {
      await runTicketTimers(t.app.ctx);
      await runTicketTimers(t.app.ctx);
      await eventually(async () => events.some((e) => e.action === 'update' && e.ticket?.id === waiting && e.ticket.queueId === overflow));
    } finally {
      socket.close();
    }
    const read = await t.app.inject({ method: 'GET', url: `/tickets/${waiting}`, headers: bearer(admin.token) });
    expect(read.json()).toMatchObject({ status: 'pending', userId: null, queueId: overflow, queue: { id: overflow } });
    const redirects = (await logsOf(waiting)).filter((l) => l.type === 'redirect');
    expect(redirects).toMatchObject([{ type: 'redirect', queue: { id: overflow }, user: null }]);
    expect(await ticketOf(taken)).toMatchObject({ status: 'open', queueId: first });
    expect((await logsOf(taken)).map((l) => l.type)).not.toContain('redirect');
  });

  it('closes a rating exchange after expiresTicketNPS minutes', async () => {
    const conn = await newConnection({ ratingMessage: 'Nota?', expiresTicketNPS: 5 });
    const ticketId = await customerSays(conn, '3000022', 'Oi');
    await closeTicket(t.app.ctx, { companyId, ticketId });
    await t.db.update(tickets).set({ ratingRequestedAt: new Date(Date.now() - 10 * 60e3) }).where(eq(tickets.id, ticketId));
    await runTicketTimers(t.app.ctx);
    expect((await ticketOf(ticketId)).status).toBe('closed');
  });
});
