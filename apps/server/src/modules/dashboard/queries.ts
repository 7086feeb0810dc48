import type { DashboardResponse } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { onDays, within, type DayWindow } from './window.js';

/** Sum of a summary column over the group (0 without rows). */
const total = (column: string) => sql.raw(`coalesce(sum(d.${column}), 0)::int`);
/** Mean over the group: sum of a summary column ÷ the count of what it adds up (null when it counts nothing). */
const mean = (sum: string, n: string) => sql.raw(`(sum(d.${sum})::numeric / nullif(sum(d.${n}), 0))::float8`);

/** Rounded to two decimals (percentages, minutes). */
const round2 = (n: number) => Math.round(n * 100) / 100;
const perc = (part: number, whole: number) => (whole > 0 ? round2((part * 100) / whole) : 0);

type Aggregate = Record<
  'happening' | 'pending' | 'finished' | 'groups' | 'active' | 'passive' | 'tickets' | 'with_rating' | 'wait_rating' | 'promoters' | 'neutral' | 'detractors' | 'rated',
  number
> & { user_id: number | null; whole: boolean; avg_wait: number | null; avg_support: number | null; avg_rate: number | null };

/**
 * `GET /dashboard`: the company's figures and one row per user, from the period's days of the daily
 * summary (migration 0034: per day, queue and attendant; GROUPING SETS: the whole period, and per
 * attendant) plus one read of the users and a count of the new contacts. The windows are whole days,
 * so the summary covers them exactly. docs/dashboard.md defines every figure.
 */
export async function dashboardFigures(db: DbOrTx, companyId: number, w: DayWindow): Promise<DashboardResponse> {
  const [{ rows: groups }, { rows: people }, { rows: leadRows }] = await Promise.all([
    db.execute<Aggregate>(sql`
      SELECT nullif(d.user_id, 0) AS user_id, grouping(d.user_id) = 1 AS whole,
        ${total('happening')} AS happening, ${total('pending')} AS pending, ${total('finished')} AS finished,
        ${total('groups')} AS groups, ${total('active')} AS active, ${total('tickets')} - ${total('active')} AS passive,
        ${total('tickets')} AS tickets, ${total('with_rating')} AS with_rating, ${total('wait_rating')} AS wait_rating,
        ${total('promoters')} AS promoters, ${total('neutral')} AS neutral, ${total('detractors')} AS detractors, ${total('rated')} AS rated,
        ${mean('rate_sum', 'rated')} AS avg_rate, ${mean('wait_minutes', 'waited')} AS avg_wait, ${mean('service_minutes', 'served')} AS avg_support
      FROM dashboard_daily d
      WHERE d.company_id = ${companyId} AND ${onDays(sql`d.day`, w)}
      GROUP BY GROUPING SETS ((), (d.user_id))`),
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
