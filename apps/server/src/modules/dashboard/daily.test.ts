import { dashboardResponse, type DashboardResponse } from '@balcao/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type TestApp } from '../../../test/helpers.js';
import { createConnection } from '../../../test/connections.js';
import { createAdminTestApp, createPlainUser, setupRoles, type Roles } from '../../../test/roles.js';
import { createQueue } from '../../../test/tickets.js';
import { compactDashboardDaily } from './compaction.js';

// The daily summary (migration 0034) against the tickets themselves: after bulk inserts, multi-row
// updates, accepts and ratings through their log and rating rows, deletions and a command, every figure
// read from the summary equals the one the dashboard computed from the tickets before it had a summary.

let t: TestApp;
let roles: Roles;
let users: number[];
let queues: number[];
beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
  const ana = await createPlainUser(t, roles.companyId, { name: 'Ana' });
  const bruno = await createPlainUser(t, roles.companyId, { name: 'Bruno' });
  users = [ana.user.id, bruno.user.id, roles.admin.user.id];
  queues = [(await createQueue(t.db, roles.companyId, 'Vendas')).id, (await createQueue(t.db, roles.companyId, 'Suporte')).id];
  const conn = await createConnection(t.db, roles.companyId);
  const run = (q: SQL) => t.db.execute(q);
  const company = roles.companyId;
  // 600 tickets over January–March 2026 (and 40 in the other company), one contact each.
  await run(sql`SELECT setseed(0.15)`);
  for (const [id, n] of [[company, 600], [roles.otherCompanyId, 40]] as const) {
    await run(sql`
      WITH c AS (
        INSERT INTO contacts (company_id, channel, name, number, created_at)
        SELECT ${id}::int, 'whatsapp', 'Cliente ' || i, '5511' || ${id}::int || lpad(i::text, 6, '0'), '2026-01-01'::timestamptz + random() * interval '90 days'
        FROM generate_series(1, ${n}::int) i RETURNING id, created_at)
      INSERT INTO tickets (company_id, contact_id, whatsapp_id, status, is_group, queue_id, user_id, created_at, accepted_at, started_by_user, closed_at)
      SELECT ${id}::int, c.id, ${id === company ? conn.id : null}::int, s.status, s.status = 'group',
        (ARRAY[${queues[0]}::int, ${queues[1]}::int, NULL])[1 + (c.id % 3)],
        CASE WHEN s.status IN ('pending', 'group') THEN NULL ELSE (ARRAY[${users[0]}::int, ${users[1]}::int, ${users[2]}::int])[1 + (c.id % 3)] END,
        c.created_at,
        CASE WHEN s.status NOT IN ('pending', 'group') THEN c.created_at + random() * interval '40 minutes' END,
        c.id % 4 = 0,
        CASE WHEN s.status = 'closed' THEN c.created_at + interval '1 hour' + random() * interval '3 hours' END
      FROM c CROSS JOIN LATERAL (SELECT (ARRAY['open', 'pending', 'closed', 'closed', 'closed', 'nps', 'group'])[1 + floor(random() * 7)::int + (c.id * 0)] AS status) s`);
  }
  const mine = sql`company_id = ${company}`;
  // A ticket closes, another changes hands, queues empty, ratings arrive / change / go, accepts come from log lines.
  await run(sql`UPDATE tickets SET status = 'closed', closed_at = created_at + interval '2 hours', accepted_at = coalesce(accepted_at, created_at + interval '5 minutes') WHERE ${mine} AND id % 7 = 0 AND status <> 'group'`);
  await run(sql`UPDATE tickets SET user_id = ${users[1]} WHERE ${mine} AND id % 5 = 1 AND status <> 'pending'`);
  await run(sql`UPDATE tickets SET queue_id = NULL WHERE ${mine} AND id % 11 = 2`);
  await run(sql`UPDATE tickets SET last_message = 'nothing the figures read' WHERE ${mine}`);
  await run(sql`INSERT INTO ticket_ratings (company_id, ticket_id, user_id, rate) SELECT company_id, id, user_id, (id * 7) % 11 FROM tickets WHERE status IN ('closed', 'nps') AND id % 3 <> 0`);
  await run(sql`UPDATE ticket_ratings SET rate = 10 WHERE ${mine} AND ticket_id % 4 = 1`);
  await run(sql`DELETE FROM ticket_ratings WHERE ${mine} AND ticket_id % 9 = 2`);
  await run(sql`INSERT INTO ticket_logs (company_id, ticket_id, type, user_id, created_at) SELECT company_id, id, 'open', ${users[0]}, created_at + interval '12 minutes' FROM tickets WHERE ${mine} AND status = 'pending' AND id % 2 = 0`);
  await run(sql`DELETE FROM tickets WHERE ${mine} AND id % 13 = 4`);
  // The command path: an admin takes a pending ticket.
  const { rows } = await t.db.execute<{ id: number }>(sql`SELECT id FROM tickets WHERE ${mine} AND status = 'pending' ORDER BY id LIMIT 1`);
  const accept = await t.app.inject({ method: 'PUT', url: `/tickets/${rows[0]!.id}`, headers: bearer(roles.admin.token), payload: { status: 'open', userId: roles.admin.user.id } });
  expect(accept.statusCode, accept.body).toBe(200);
});
afterAll(() => t.close());

/** The figures as the dashboard computed them from the tickets of the period (before migration 0034). */
async function fromTickets(companyId: number, from: string, to: string) {
  const { rows } = await t.db.execute<Record<string, number | boolean | null>>(sql`
    WITH t AS (SELECT * FROM tickets WHERE company_id = ${companyId} AND created_at >= ${from}::date::timestamptz AND created_at < (${to}::date + 1)::timestamptz)
    SELECT t.user_id, grouping(t.user_id) = 1 AS whole,
      count(*) FILTER (WHERE NOT is_group AND status = 'open')::int AS happening,
      count(*) FILTER (WHERE NOT is_group AND status = 'pending')::int AS pending,
      count(*) FILTER (WHERE NOT is_group AND status = 'closed')::int AS finished,
      count(*) FILTER (WHERE is_group)::int AS groups,
      count(*) FILTER (WHERE NOT is_group AND started_by_user)::int AS active,
      count(*) FILTER (WHERE NOT is_group)::int AS tickets,
      count(rate) FILTER (WHERE NOT is_group)::int AS with_rating,
      count(*) FILTER (WHERE NOT is_group AND status = 'nps' AND rate IS NULL)::int AS wait_rating,
      count(*) FILTER (WHERE rate >= 9)::int AS promoters,
      count(*) FILTER (WHERE rate <= 6)::int AS detractors,
      count(rate)::int AS rated,
      avg(rate)::float8 AS avg_rate,
      (avg(extract(epoch FROM accepted_at - created_at) / 60) FILTER (WHERE NOT is_group AND accepted_at IS NOT NULL))::float8 AS avg_wait,
      (avg(extract(epoch FROM closed_at - accepted_at) / 60) FILTER (WHERE NOT is_group AND status = 'closed' AND accepted_at IS NOT NULL))::float8 AS avg_support
    FROM t GROUP BY GROUPING SETS ((), (t.user_id))`);
  return rows;
}

const r2 = (n: number | boolean | null | undefined) => Math.round(Number(n ?? 0) * 100) / 100;
const get = (url: string, token = roles.admin.token) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

describe('the daily summary', () => {
  it.each([
    ['the whole quarter', '2026-01-01', '2026-03-31'],
    ['a month', '2026-02-01', '2026-02-28'],
    ['a week across two months', '2026-01-28', '2026-02-03'],
    ['a single day', '2026-03-05', '2026-03-05'],
    ['days without tickets', '2025-06-01', '2025-06-30'],
  ])('gives the figures the tickets give for %s, company-wide and per attendant', async (_, from, to) => {
    const res = await get(`/dashboard?date_from=${from}&date_to=${to}`);
    expect(res.statusCode).toBe(200);
    const { counters, attendants }: DashboardResponse = dashboardResponse.parse(res.json());
    const ref = await fromTickets(roles.companyId, from, to);
    const whole = ref.find((g) => g.whole)!;
    const rated = Number(whole.rated);
    expect(counters).toMatchObject({
      supportHappening: whole.happening,
      supportPending: whole.pending,
      supportFinished: whole.finished,
      supportGroups: whole.groups,
      activeTickets: whole.active,
      passiveTickets: Number(whole.tickets) - Number(whole.active),
      tickets: whole.tickets,
      withRating: whole.with_rating,
      waitRating: whole.wait_rating,
      avgWaitTime: r2(whole.avg_wait),
      avgSupportTime: r2(whole.avg_support),
      npsPromotersPerc: rated ? r2((Number(whole.promoters) * 100) / rated) : 0,
      npsDetractorsPerc: rated ? r2((Number(whole.detractors) * 100) / rated) : 0,
    });
    for (const a of attendants) {
      const g = ref.find((row) => !row.whole && row.user_id === a.id);
      expect(a, a.name).toMatchObject({
        tickets: g?.tickets ?? 0,
        countRating: g?.rated ?? 0,
        rating: g?.avg_rate == null ? null : r2(g.avg_rate),
        avgWaitTime: r2(g?.avg_wait),
        avgSupportTime: r2(g?.avg_support),
      });
    }
    if (from === '2026-01-01') expect(Number(whole.tickets)).toBeGreaterThan(400);
  });

  it('gives the charts the counts of the tickets, per attendant and per day', async () => {
    const users = await get('/dashboard/ticketsUsers?initialDate=2026-02-01&finalDate=2026-03-15');
    const { rows: perUser } = await t.db.execute<{ nome: string; quantidade: number }>(sql`
      SELECT u.name AS nome, count(*)::int AS quantidade FROM tickets t JOIN users u ON u.id = t.user_id
      WHERE t.company_id = ${roles.companyId} AND t.created_at >= '2026-02-01'::date::timestamptz AND t.created_at < '2026-03-16'::date::timestamptz
      GROUP BY u.id, u.name ORDER BY quantidade DESC, u.name`);
    expect(users.json()).toEqual({ data: perUser });
    const days = await get('/dashboard/ticketsDay?initialDate=2026-01-01&finalDate=2026-03-31');
    const { rows: perDay } = await t.db.execute<{ data: string; total: number }>(sql`
      SELECT to_char(created_at, 'YYYY-MM-DD') AS data, count(*)::int AS total FROM tickets
      WHERE company_id = ${roles.companyId} AND created_at >= '2026-01-01'::date::timestamptz AND created_at < '2026-04-01'::date::timestamptz
      GROUP BY 1 ORDER BY 1`);
    expect(days.json()).toEqual({ data: perDay, count: perDay.reduce((n, d) => n + d.total, 0) });
  });

  it('holds, row by row (each queue and attendant of each day), what counting every ticket again gives, before and after folding the deltas', async () => {
    const companies = sql`(${roles.companyId}, ${roles.otherCompanyId})`;
    const summary = async () =>
      (
        await t.db.execute(sql`
          SELECT company_id, day::text, queue_id, user_id, sum(total)::int AS total, sum(tickets)::int AS tickets, sum(happening)::int AS happening,
            sum(pending)::int AS pending, sum(finished)::int AS finished, sum(groups)::int AS groups, sum(active)::int AS active,
            sum(with_rating)::int AS with_rating, sum(wait_rating)::int AS wait_rating, sum(promoters)::int AS promoters, sum(neutral)::int AS neutral,
            sum(detractors)::int AS detractors, sum(rated)::int AS rated, sum(rate_sum)::int AS rate_sum, sum(waited)::int AS waited,
            sum(wait_minutes)::float8 AS wait_minutes, sum(served)::int AS served, sum(service_minutes)::float8 AS service_minutes
          FROM dashboard_daily WHERE company_id IN ${companies} GROUP BY 1, 2, 3, 4
          HAVING (sum(total), sum(tickets), sum(rated), sum(waited), sum(served)) <> (0, 0, 0, 0, 0) ORDER BY 1, 2, 3, 4`)
      ).rows;
    const deltas = async () => (await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM dashboard_daily WHERE delta AND company_id IN ${companies}`)).rows[0]!.n;
    const kept = await summary();
    expect(kept.length).toBeGreaterThan(100);
    expect(await deltas()).toBeGreaterThan(kept.length);
    expect(await compactDashboardDaily(t.db)).toBeGreaterThan(kept.length);
    expect(await deltas()).toBe(0);
    expect(await summary()).toEqual(kept);
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`DELETE FROM dashboard_daily WHERE company_id IN ${companies}`);
      const theirs = `SELECT 1 AS sign, * FROM tickets WHERE company_id IN (${roles.companyId}, ${roles.otherCompanyId})`;
      const { rows } = await tx.execute<{ add: string }>(sql`SELECT dashboard_daily_add(${theirs}) AS add`);
      await tx.execute(sql.raw(rows[0]!.add));
    });
    expect(await summary()).toEqual(kept);
    const dashboard = await get('/dashboard?date_from=2026-01-01&date_to=2026-03-31');
    const ours = kept.filter((r) => r.company_id === roles.companyId && String(r.day) <= '2026-03-31');
    expect(dashboardResponse.parse(dashboard.json()).counters.tickets).toBe(ours.reduce((n, r) => n + Number(r.tickets), 0));
  });

  it("counts only the caller's company, and goes with the company when it is deleted", async () => {
    const theirs = dashboardResponse.parse((await get('/dashboard?date_from=2026-01-01&date_to=2026-03-31', roles.otherAdmin.token)).json());
    const ref = (await fromTickets(roles.otherCompanyId, '2026-01-01', '2026-03-31')).find((g) => g.whole)!;
    expect(theirs.counters.tickets + theirs.counters.supportGroups).toBe(40);
    expect(theirs.counters.tickets).toBe(ref.tickets);
    await t.db.execute(sql`DELETE FROM companies WHERE id = ${roles.otherCompanyId}`);
    const { rows } = await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM dashboard_daily WHERE company_id = ${roles.otherCompanyId}`);
    expect(rows[0]!.n).toBe(0);
  });
});
