import type { DashboardAttendant, DashboardCounters } from '@balcao/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { within, type DayWindow } from './window.js';

/**
 * The period's tickets (created in the window) with what the figures need, one row each:
 * `accepted_at` is when an attendant first took it (accept, or created it themselves),
 * `active` whether an attendant started it. docs/dashboard.md defines every figure.
 */
const periodTickets = (companyId: number, w: DayWindow): SQL => sql`
  SELECT t.id, t.status, t.is_group, t.user_id, t.created_at, t.closed_at, r.rate, lg.accepted_at, coalesce(lg.active, false) AS active
  FROM tickets t
  LEFT JOIN ticket_ratings r ON r.ticket_id = t.id
  LEFT JOIN LATERAL (
    SELECT min(l.created_at) FILTER (WHERE l.type = 'open' OR (l.type = 'create' AND l.user_id IS NOT NULL)) AS accepted_at,
           bool_or(l.type = 'create' AND l.user_id IS NOT NULL) AS active
    FROM ticket_logs l WHERE l.ticket_id = t.id
  ) lg ON true
  WHERE t.company_id = ${companyId} AND ${within(sql`t.created_at`, w)}`;

/** Minutes between two columns of the period's row `t`. */
const minutes = (from: string, to: string) => sql.raw(`extract(epoch FROM t.${to} - t.${from}) / 60`);
const WAIT = minutes('created_at', 'accepted_at');
const SUPPORT = minutes('accepted_at', 'closed_at');

/** Rounded to two decimals (percentages, minutes). */
const round2 = (n: number) => Math.round(n * 100) / 100;
const perc = (part: number, whole: number) => (whole > 0 ? round2((part * 100) / whole) : 0);

type CounterRow = Record<
  'happening' | 'pending' | 'finished' | 'groups' | 'active' | 'passive' | 'tickets' | 'with_rating' | 'wait_rating' | 'promoters' | 'neutral' | 'detractors' | 'rated',
  number
> & { avg_wait: number | null; avg_support: number | null };

export async function dashboardCounters(db: DbOrTx, companyId: number, w: DayWindow): Promise<DashboardCounters> {
  const [{ rows: [c] }, { rows: [extra] }] = await Promise.all([
    db.execute<CounterRow>(sql`
      WITH t AS (${periodTickets(companyId, w)})
      SELECT
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
        (avg(${WAIT}) FILTER (WHERE NOT is_group AND accepted_at IS NOT NULL))::float8 AS avg_wait,
        (avg(${SUPPORT}) FILTER (WHERE NOT is_group AND status = 'closed' AND accepted_at IS NOT NULL))::float8 AS avg_support
      FROM t`),
    db.execute<{ leads: number; online: number; total: number }>(sql`
      SELECT
        (SELECT count(*)::int FROM contacts WHERE company_id = ${companyId} AND NOT is_group AND ${within(sql`created_at`, w)}) AS leads,
        count(*) FILTER (WHERE online)::int AS online,
        count(*)::int AS total
      FROM users WHERE company_id = ${companyId}`),
  ]);
  if (!c || !extra) throw new Error('aggregate without a row');
  const npsPromotersPerc = perc(c.promoters, c.rated);
  const npsDetractorsPerc = perc(c.detractors, c.rated);
  return {
    supportHappening: c.happening,
    supportPending: c.pending,
    supportFinished: c.finished,
    supportGroups: c.groups,
    leads: extra.leads,
    avgSupportTime: round2(c.avg_support ?? 0),
    avgWaitTime: round2(c.avg_wait ?? 0),
    activeTickets: c.active,
    passiveTickets: c.passive,
    npsScore: perc(c.promoters - c.detractors, c.rated),
    npsPromotersPerc,
    npsPassivePerc: perc(c.neutral, c.rated),
    npsDetractorsPerc,
    tickets: c.tickets,
    waitRating: c.wait_rating,
    withoutRating: c.tickets - c.with_rating - c.wait_rating,
    withRating: c.with_rating,
    percRating: perc(c.with_rating, c.tickets),
    usersOnline: extra.online,
    usersTotal: extra.total,
  };
}

/** Every user of the company, with the period's tickets they hold. */
export async function dashboardAttendants(db: DbOrTx, companyId: number, w: DayWindow): Promise<DashboardAttendant[]> {
  const { rows } = await db.execute<{
    id: number;
    name: string;
    online: boolean;
    tickets: number;
    count_rating: number;
    rating: number | null;
    avg_wait: number | null;
    avg_support: number | null;
  }>(sql`
    WITH t AS (${periodTickets(companyId, w)})
    SELECT u.id, u.name, u.online,
      count(t.id) FILTER (WHERE NOT t.is_group)::int AS tickets,
      count(t.rate)::int AS count_rating,
      avg(t.rate)::float8 AS rating,
      (avg(${WAIT}) FILTER (WHERE NOT t.is_group AND t.accepted_at IS NOT NULL))::float8 AS avg_wait,
      (avg(${SUPPORT}) FILTER (WHERE NOT t.is_group AND t.status = 'closed' AND t.accepted_at IS NOT NULL))::float8 AS avg_support
    FROM users u LEFT JOIN t ON t.user_id = u.id
    WHERE u.company_id = ${companyId}
    GROUP BY u.id
    ORDER BY u.name, u.id`);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    rating: r.rating === null ? null : round2(r.rating),
    countRating: r.count_rating,
    tickets: r.tickets,
    avgWaitTime: round2(r.avg_wait ?? 0),
    avgSupportTime: round2(r.avg_support ?? 0),
    online: r.online,
  }));
}
