import type { DashboardResponse } from '@balcao/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { within, type DayWindow } from './window.js';

/**
 * The period's tickets (created in the window) with what the figures need, one row each, read
 * index-only from `tickets_company_created_idx`: `accepted_at` is when an attendant first took it
 * (accept, or created it themselves), `active` whether an attendant started it, `rate` the NPS answer
 * (columns the database keeps from the log and rating rows, migration 0014). docs/dashboard.md
 * defines every figure.
 */
const periodTickets = (companyId: number, w: DayWindow): SQL => sql`
  SELECT t.status, t.is_group, t.user_id, t.created_at, t.closed_at, t.rate, t.accepted_at, t.started_by_user AS active
  FROM tickets t
  WHERE t.company_id = ${companyId} AND ${within(sql`t.created_at`, w)}`;

/** Minutes between two columns of the period's row `t`. */
const minutes = (from: string, to: string) => sql.raw(`extract(epoch FROM t.${to} - t.${from}) / 60`);
const WAIT = minutes('created_at', 'accepted_at');
const SUPPORT = minutes('accepted_at', 'closed_at');

/** Rounded to two decimals (percentages, minutes). */
const round2 = (n: number) => Math.round(n * 100) / 100;
const perc = (part: number, whole: number) => (whole > 0 ? round2((part * 100) / whole) : 0);

type Aggregate = Record<
  'happening' | 'pending' | 'finished' | 'groups' | 'active' | 'passive' | 'tickets' | 'with_rating' | 'wait_rating' | 'promoters' | 'neutral' | 'detractors' | 'rated',
  number
> & { user_id: number | null; whole: boolean; avg_wait: number | null; avg_support: number | null; avg_rate: number | null };

/**
 * `GET /dashboard`: the company's figures and one row per user, from one pass over the period's
 * tickets (GROUPING SETS: the whole period, and per attendant) plus one read of the users.
 */
export async function dashboardFigures(db: DbOrTx, companyId: number, w: DayWindow): Promise<DashboardResponse> {
  const [{ rows: groups }, { rows: people }, { rows: leadRows }] = await Promise.all([
    db.execute<Aggregate>(sql`
      WITH t AS (${periodTickets(companyId, w)})
      SELECT t.user_id, grouping(t.user_id) = 1 AS whole,
        count(*) FILTER (WHERE NOT is_group AND status = 'open')::int AS happening,
        count(*) FILTER (WHERE NOT is_group AND status = 'pending')::int AS pending,
        count(*) FILTER (WHERE NOT is_group AND status = 'closed')::int AS finished,
        count(*) FILTER (WHERE is_group)::int AS groups,
        count(*) FILTER (WHERE NOT is_group AND active)::int AS active,
        count(*) FILTER (WHERE NOT is_group AND NOT active)::int AS passive,
        count(*) FILTER (WHERE NOT is_group)::int AS tickets,
        count(rate) FILTER (WHERE NOT is_group)::int AS with_rating,
        count(*) FILTER (WHERE NOT is_group AND status = 'nps' AND rate IS NULL)::int AS wait_rating,
        count(*) FILTER (WHERE rate >= 9)::int AS promoters,
        count(*) FILTER (WHERE rate BETWEEN 7 AND 8)::int AS neutral,
        count(*) FILTER (WHERE rate <= 6)::int AS detractors,
        count(rate)::int AS rated,
        avg(rate)::float8 AS avg_rate,
        (avg(${WAIT}) FILTER (WHERE NOT is_group AND accepted_at IS NOT NULL))::float8 AS avg_wait,
        (avg(${SUPPORT}) FILTER (WHERE NOT is_group AND status = 'closed' AND accepted_at IS NOT NULL))::float8 AS avg_support
      FROM t GROUP BY GROUPING SETS ((), (t.user_id))`),
    db.execute<{ id: number; name: string; online: boolean }>(sql`SELECT id, name, online FROM users WHERE company_id = ${companyId} ORDER BY name, id`),
    db.execute<{ leads: number }>(sql`
      SELECT count(*)::int AS leads FROM contacts WHERE company_id = ${companyId} AND NOT is_group AND ${within(sql`created_at`, w)}`),
  ]);
  const c = groups.find((g) => g.whole);
  if (!c) throw new Error('aggregate without a row');
  const byUser = new Map(groups.filter((g) => !g.whole && g.user_id !== null).map((g) => [g.user_id, g]));
  return {
    counters: {
      supportHappening: c.happening,
      supportPending: c.pending,
      supportFinished: c.finished,
      supportGroups: c.groups,
      leads: leadRows[0]?.leads ?? 0,
      avgSupportTime: round2(c.avg_support ?? 0),
      avgWaitTime: round2(c.avg_wait ?? 0),
      activeTickets: c.active,
      passiveTickets: c.passive,
      npsScore: perc(c.promoters - c.detractors, c.rated),
      npsPromotersPerc: perc(c.promoters, c.rated),
      npsPassivePerc: perc(c.neutral, c.rated),
      npsDetractorsPerc: perc(c.detractors, c.rated),
      tickets: c.tickets,
      waitRating: c.wait_rating,
      withoutRating: c.tickets - c.with_rating - c.wait_rating,
      withRating: c.with_rating,
      percRating: perc(c.with_rating, c.tickets),
      usersOnline: people.filter((u) => u.online).length,
      usersTotal: people.length,
    },
    attendants: people.map((u) => {
      const g = byUser.get(u.id);
      return {
        id: u.id,
        name: u.name,
        rating: g?.avg_rate == null ? null : round2(g.avg_rate),
        countRating: g?.rated ?? 0,
        tickets: g?.tickets ?? 0,
        avgWaitTime: round2(g?.avg_wait ?? 0),
        avgSupportTime: round2(g?.avg_support ?? 0),
        online: u.online,
      };
    }),
  };
}
