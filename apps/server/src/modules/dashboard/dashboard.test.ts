import { dashboardResponse, type DashboardAttendant, type MomentTicket } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, ticketLogs } from '../../db/schema/index.js';
import { bearer, type LoggedIn, type TestApp } from '../../../test/helpers.js';
import { INSIGHT_EXPECTED, INSIGHT_MONTH, seedInsight, type InsightFixture } from '../../../test/insight-seed.js';
import { createAdminTestApp, createPlainUser, setupRoles, type Roles } from '../../../test/roles.js';
import { createContact, createTicketRow, joinQueues } from '../../../test/tickets.js';

let t: TestApp;
let roles: Roles;
let ana: LoggedIn;
let bruno: LoggedIn;
let manager: LoggedIn;
let fx: InsightFixture;
beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
  ana = await createPlainUser(t, roles.companyId, { name: 'Ana' });
  bruno = await createPlainUser(t, roles.companyId, { name: 'Bruno' });
  manager = await createPlainUser(t, roles.companyId, { name: 'Zélia Gerente', showDashboard: 'enabled', allowRealTime: 'enabled' });
  fx = await seedInsight(t.db, roles.companyId, ana.user, bruno.user);
});
afterAll(() => t.close());

const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const MONTH = `date_from=${INSIGHT_MONTH.from}&date_to=${INSIGHT_MONTH.to}`;

describe('GET /dashboard', () => {
  it("computes every counter of the month's fixture as docs/dashboard.md defines it", async () => {
    const res = await get(roles.admin.token, `/dashboard?${MONTH}`);
    expect(res.statusCode).toBe(200);
    const { counters } = dashboardResponse.parse(res.json());
    // admin, plain user, Ana, Bruno, the manager.
    expect(counters).toEqual({ ...INSIGHT_EXPECTED, usersTotal: 5 });
  });

  it('lists every attendant with their tickets, rating, wait, service time and presence', async () => {
    const { attendants } = dashboardResponse.parse((await get(manager.token, `/dashboard?${MONTH}`)).json());
    const byName = (name: string) => attendants.find((a) => a.name === name);
    expect(byName('Ana')).toEqual<DashboardAttendant>({
      id: ana.user.id,
      name: 'Ana',
      rating: 8,
      countRating: 2,
      tickets: 3,
      avgWaitTime: 11.67,
      avgSupportTime: 45,
      online: true,
    });
    expect(byName('Bruno')).toEqual<DashboardAttendant>({
      id: bruno.user.id,
      name: 'Bruno',
      rating: 9,
      countRating: 1,
      tickets: 2,
      avgWaitTime: 15,
      avgSupportTime: 50,
      online: false,
    });
    expect(byName('Zélia Gerente')).toMatchObject({ tickets: 0, rating: null, countRating: 0, avgWaitTime: 0, avgSupportTime: 0 });
    expect(attendants).toHaveLength(5);
  });

  it('counts only the days asked for', async () => {
    const { counters } = dashboardResponse.parse((await get(roles.admin.token, '/dashboard?date_from=2026-03-12&date_to=2026-03-12')).json());
    expect(counters).toMatchObject({ tickets: 2, supportHappening: 1, supportPending: 1, supportFinished: 0, avgWaitTime: 30, leads: 2 });
    const april = dashboardResponse.parse((await get(roles.admin.token, '/dashboard?date_from=2026-04-01&date_to=2026-04-30')).json());
    expect(april.counters).toMatchObject({ tickets: 1, supportFinished: 1, withRating: 1, npsDetractorsPerc: 100, npsScore: -100 });
  });

  it('answers 400 without a filter, with the range reversed, longer than a year or with a date that does not exist', async () => {
    for (const q of ['', '?date_from=2026-03-10', '?date_from=2026-03-10&date_to=2026-03-01', '?date_from=2025-01-01&date_to=2026-03-01', '?date_from=2026-02-30&date_to=2026-03-01', '?days=abc', '?days=0']) {
      const res = await get(roles.admin.token, `/dashboard${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    expect((await get(roles.admin.token, '/dashboard?days=7')).statusCode).toBe(200);
  });

  it('refuses a plain user without showDashboard with 403 (before looking at the parameters) and counts only the caller company', async () => {
    for (const url of [`/dashboard?${MONTH}`, '/dashboard', '/dashboard/ticketsUsers?initialDate=2026-03-01&finalDate=2026-03-31', `/messages-allMe?fromMe=true&dateStart=2026-03-01&dateEnd=2026-03-31`]) {
      const res = await get(roles.user.token, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    const theirs = dashboardResponse.parse((await get(roles.otherAdmin.token, `/dashboard?${MONTH}`)).json());
    expect(theirs.counters).toMatchObject({ tickets: 0, supportGroups: 0, leads: 0, withRating: 0, usersTotal: 1 });
    expect(theirs.attendants.map((a) => a.name)).not.toContain('Ana');
  });
});

describe('figures kept by the database', () => {
  it("takes the wait time from the attendant's accept, done through the ticket command", async () => {
    const opened = new Date(Date.now() - 10 * 60_000);
    const contact = await createContact(t.db, roles.companyId, { name: 'Cliente Hoje', createdAt: opened });
    const ticket = await createTicketRow(t.db, { companyId: roles.companyId, contactId: contact.id, whatsappId: fx.whatsappId, queueId: fx.queueId, createdAt: opened });
    await t.db.insert(ticketLogs).values({ companyId: roles.companyId, ticketId: ticket.id, type: 'create', createdAt: opened });
    const before = dashboardResponse.parse((await get(roles.admin.token, '/dashboard?days=1')).json()).counters;
    expect(before).toMatchObject({ supportPending: 1, avgWaitTime: 0, passiveTickets: 1 });
    const accept = await t.app.inject({ method: 'PUT', url: `/tickets/${ticket.id}`, headers: bearer(roles.admin.token), payload: { status: 'open', userId: roles.admin.user.id } });
    expect(accept.statusCode, accept.body).toBe(200);
    const after = dashboardResponse.parse((await get(roles.admin.token, '/dashboard?days=1')).json());
    expect(after.counters).toMatchObject({ supportPending: 0, supportHappening: 1 });
    expect(after.counters.avgWaitTime).toBeGreaterThanOrEqual(10);
    expect(after.counters.avgWaitTime).toBeLessThan(11);
    expect(after.attendants.find((a) => a.id === roles.admin.user.id)).toMatchObject({ tickets: 1 });
  });
});

describe('charts', () => {
  it('counts tickets per attendant, biggest first', async () => {
    const res = await get(manager.token, '/dashboard/ticketsUsers?initialDate=2026-03-01&finalDate=2026-03-31&companyId=999');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [{ nome: 'Ana', quantidade: 3 }, { nome: 'Bruno', quantidade: 2 }] });
    const theirs = await get(roles.otherAdmin.token, '/dashboard/ticketsUsers?initialDate=2026-03-01&finalDate=2026-03-31');
    expect(theirs.json()).toEqual({ data: [] });
  });

  it('counts tickets per day, and per hour for a single day', async () => {
    const days = await get(roles.admin.token, '/dashboard/ticketsDay?initialDate=2026-03-01&finalDate=2026-03-31');
    expect(days.json()).toEqual({
      data: [
        { data: '2026-03-10', total: 1 },
        { data: '2026-03-11', total: 1 },
        { data: '2026-03-12', total: 2 },
        { data: '2026-03-13', total: 1 },
        { data: '2026-03-14', total: 1 },
        { data: '2026-03-15', total: 1 },
      ],
      count: 7,
    });
    const hours = (await get(roles.admin.token, '/dashboard/ticketsDay?initialDate=2026-03-12&finalDate=2026-03-12')).json() as {
      data: { horario: string; total: number }[];
      count: number;
    };
    // T3 at 12:00 UTC and T4 at 13:00 UTC, in the database's time zone.
    const { rows } = await t.db.execute<{ h: number }>(sql`SELECT extract(hour FROM '2026-03-12T12:00:00Z'::timestamptz)::int AS h`);
    const noon = String(rows[0]!.h);
    expect(hours.count).toBe(2);
    expect(hours.data).toHaveLength(24);
    expect(hours.data.filter((h) => h.total > 0)).toEqual([
      { horario: noon, total: 1 },
      { horario: String(Number(noon) + 1), total: 1 },
    ]);
    const bad = await get(roles.admin.token, '/dashboard/ticketsDay?initialDate=2026-03-12&finalDate=2026-03-01');
    expect(bad.statusCode).toBe(400);
  });

  it('counts messages received and sent, without internal notes, in the company only', async () => {
    const at = new Date('2026-03-10T12:05:00Z');
    const base = { companyId: roles.companyId, ticketId: fx.ids.T1, createdAt: at };
    await t.db.insert(messages).values([
      { ...base, body: 'oi', fromMe: false },
      { ...base, body: 'preço?', fromMe: false },
      { ...base, body: 'obrigado', fromMe: false },
      { ...base, body: 'olá!', fromMe: true },
      { ...base, body: 'R$ 10', fromMe: true },
      { ...base, body: 'nota interna', fromMe: true, isPrivate: true },
      { ...base, body: 'abril', fromMe: true, createdAt: new Date('2026-04-02T12:00:00Z') },
    ]);
    const count = async (token: string, fromMe: boolean) =>
      (await get(token, `/messages-allMe?fromMe=${fromMe}&dateStart=2026-03-01&dateEnd=2026-03-31`)).json() as { count: { count: number }[] };
    expect(await count(roles.admin.token, false)).toEqual({ count: [{ count: 3 }] });
    expect(await count(roles.admin.token, true)).toEqual({ count: [{ count: 2 }] });
    expect(await count(roles.otherAdmin.token, true)).toEqual({ count: [{ count: 0 }] });
    expect((await get(roles.admin.token, '/messages-allMe?fromMe=maybe&dateStart=2026-03-01&dateEnd=2026-03-31')).statusCode).toBe(400);
  });
});

describe('attendance panel', () => {
  const MOMENTS = `/dashboard/moments?dateStart=${INSIGHT_MONTH.from}&dateEnd=${INSIGHT_MONTH.to}`;
  it('lists open and pending tickets with user, contact, connection and queue, for admins', async () => {
    const res = await get(roles.admin.token, MOMENTS);
    expect(res.statusCode).toBe(200);
    const list = res.json() as MomentTicket[];
    expect(list.map((m) => m.id).sort()).toEqual([fx.ids.T3, fx.ids.T4].sort());
    expect(list.find((m) => m.id === fx.ids.T3)).toMatchObject({
      status: 'open',
      user: { id: bruno.user.id, name: 'Bruno' },
      contact: { name: 'Cliente T3' },
      whatsapp: { id: fx.whatsappId, name: 'Página Loja' },
      queue: { id: fx.queueId },
      lastMessage: 'Última mensagem de T3',
    });
    const closed = (await get(roles.admin.token, `${MOMENTS}&status=closed`)).json() as MomentTicket[];
    expect(closed.map((m) => m.id).sort()).toEqual([fx.ids.T1, fx.ids.T2, fx.ids.T5].sort());
    const onlyBruno = (await get(roles.admin.token, `${MOMENTS}&status=closed&userId=${bruno.user.id}`)).json() as MomentTicket[];
    expect(onlyBruno.map((m) => m.id)).toEqual([fx.ids.T5]);
    // The default window is the last 30 days: March is not in it.
    const recent = ((await get(roles.admin.token, '/dashboard/moments')).json() as MomentTicket[]).map((m) => m.id);
    expect(recent.filter((id) => Object.values(fx.ids).includes(id))).toEqual([]);
  });

  it("shows a user with allowRealTime only what their inbox shows, refuses one without it, and never another company's", async () => {
    expect((await get(manager.token, MOMENTS)).json()).toEqual([]);
    await joinQueues(t.db, roles.companyId, manager.user.id, [fx.queueId]);
    // The queue's unassigned ticket, not Bruno's.
    expect(((await get(manager.token, MOMENTS)).json() as MomentTicket[]).map((m) => m.id)).toEqual([fx.ids.T4]);
    expect((await get(roles.user.token, MOMENTS)).statusCode).toBe(403);
    expect((await get(roles.user.token, '/usersMoments')).statusCode).toBe(403);
    expect((await get(roles.otherAdmin.token, MOMENTS)).json()).toEqual([]);
    expect((await get(roles.admin.token, `${MOMENTS}&queueIds=garbage`)).statusCode).toBe(400);
  });

  it('lists the users with the open tickets they hold', async () => {
    const res = await get(roles.admin.token, `/usersMoments?dateStart=${INSIGHT_MONTH.from}&dateEnd=${INSIGHT_MONTH.to}`);
    const users = res.json() as { name: string; tickets: number; online: boolean }[];
    expect(users.find((u) => u.name === 'Bruno')).toMatchObject({ tickets: 1, online: false });
    expect(users.find((u) => u.name === 'Ana')).toMatchObject({ tickets: 0, online: true });
    expect(((await get(roles.otherAdmin.token, '/usersMoments')).json() as unknown[]).length).toBe(1);
  });
});
