import type { TicketsDayResponse, TicketsUsersResponse } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { within, type DayWindow } from './window.js';

/** Tickets created in the window per attendant (unassigned ones are not an attendant's). */
export async function ticketsPerUser(db: DbOrTx, companyId: number, w: DayWindow): Promise<TicketsUsersResponse> {
  const { rows } = await db.execute<{ nome: string; quantidade: number }>(sql`
    SELECT u.name AS nome, count(*)::int AS quantidade
    FROM tickets t JOIN users u ON u.id = t.user_id
    WHERE t.company_id = ${companyId} AND ${within(sql`t.created_at`, w)}
    GROUP BY u.id, u.name ORDER BY quantidade DESC, u.name`);
  return { data: rows };
}

/** Tickets created per hour of a single day ('horario' 0–23, every hour listed), else per day ('data'). */
export async function ticketsPerDay(db: DbOrTx, companyId: number, w: DayWindow, singleDay: boolean): Promise<TicketsDayResponse> {
  const bucket = singleDay ? sql`extract(hour FROM t.created_at)::int::text` : sql`to_char(t.created_at, 'YYYY-MM-DD')`;
  const { rows } = await db.execute<{ label: string; total: number }>(sql`
    SELECT ${bucket} AS label, count(*)::int AS total
    FROM tickets t WHERE t.company_id = ${companyId} AND ${within(sql`t.created_at`, w)}
    GROUP BY 1`);
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
