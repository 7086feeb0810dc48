import type { TicketsDayResponse, TicketsUsersResponse } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { onDays, within, type DayWindow } from './window.js';

/** Tickets created in the window per attendant (unassigned ones are not an attendant's), from the daily summary. */
export async function ticketsPerUser(db: DbOrTx, companyId: number, w: DayWindow): Promise<TicketsUsersResponse> {
  const { rows } = await db.execute<{ nome: string; quantidade: number }>(sql`
    SELECT u.name AS nome, sum(d.total)::int AS quantidade
    FROM dashboard_daily d JOIN users u ON u.id = d.user_id
    WHERE d.company_id = ${companyId} AND ${onDays(sql`d.day`, w)}
    GROUP BY u.id, u.name HAVING sum(d.total) > 0 ORDER BY quantidade DESC, u.name`);
  return { data: rows };
}

/**
 * Tickets created per hour of a single day ('horario' 0–23, every hour listed: that day's tickets), else
 * per day ('data', days with tickets: the daily summary).
 */
export async function ticketsPerDay(db: DbOrTx, companyId: number, w: DayWindow, singleDay: boolean): Promise<TicketsDayResponse> {
  const { rows } = await db.execute<{ label: string; total: number }>(
    singleDay
      ? sql`SELECT extract(hour FROM t.created_at)::int::text AS label, count(*)::int AS total
          FROM tickets t WHERE t.company_id = ${companyId} AND ${within(sql`t.created_at`, w)} GROUP BY 1`
      : sql`SELECT to_char(d.day, 'YYYY-MM-DD') AS label, sum(d.total)::int AS total
          FROM dashboard_daily d WHERE d.company_id = ${companyId} AND ${onDays(sql`d.day`, w)} GROUP BY d.day HAVING sum(d.total) > 0`,
  );
  const count = rows.reduce((sum, r) => sum + r.total, 0);
  if (singleDay) {
    const byHour = new Map(rows.map((r) => [r.label, r.total]));
    return { data: Array.from({ length: 24 }, (_, h) => ({ horario: String(h), total: byHour.get(String(h)) ?? 0 })), count };
  }
  return { data: rows.sort((a, b) => a.label.localeCompare(b.label)).map((r) => ({ data: r.label, total: r.total })), count };
}

/** Messages sent (fromMe) or received in the window; internal notes are not messages of the conversation. */
export async function messagesCount(db: DbOrTx, companyId: number, w: DayWindow, fromMe: boolean): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM messages
    WHERE company_id = ${companyId} AND from_me = ${fromMe} AND NOT is_private AND ${within(sql`created_at`, w)}`);
  return rows[0]?.n ?? 0;
}
