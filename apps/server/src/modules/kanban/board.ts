import { KANBAN_TICKET_LIMIT, type KanbanTicketsQuery, type Tag } from '@balcao/contracts';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { tags, tickets } from '../../db/schema/index.js';
import { presentTag } from '../tags/queries.js';
import { anyOf, visibleTicketsWhere, type Viewer } from '../tickets/visibility.js';

/** Statuses a card is shown for: live conversations, not groups (docs/kanban.md "The board"). */
const BOARD_STATUSES = ['pending', 'open'] as const;

/** `GET /tag/kanban/` → `{ lista }`: the company's lanes in creation order (the board's column order). */
export async function listLanes(db: DbOrTx, companyId: number): Promise<{ lista: Tag[] }> {
  const rows = await db
    .select()
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.kanban, 1)))
    .orderBy(asc(tags.id));
  return { lista: rows.map(presentTag) };
}

const dayParam = (day: string | undefined) => (day ? sql`${day}::date` : sql`current_date`);

/** The board's cards: the live tickets of the selected queues (default: the caller's) the caller may see, last active between the two days. */
function boardWhere(v: Viewer, q: KanbanTicketsQuery): SQL {
  return and(
    visibleTicketsWhere(v),
    inArray(tickets.status, [...BOARD_STATUSES]),
    eq(tickets.isGroup, false),
    anyOf(tickets.queueId, q.queueIds ?? v.queueIds),
    sql`${tickets.updatedAt} >= ${dayParam(q.startDate)} and ${tickets.updatedAt} < ${dayParam(q.endDate)} + 1`,
  ) as SQL;
}

/**
 * `GET /ticket/kanban`: `{ tickets }` by ticket number as ONE statement answering the JSON text — the cards
 * (the newest KANBAN_TICKET_LIMIT by last activity, an index range on `tickets_company_id_idx`), each with
 * its contact, user, tags (lanes first, the latest set first) and the contact's extra info, aggregated by
 * PostgreSQL over the cards' ids (no per-card subquery, no per-card object in Node). Shape: kanbanTicketsResponse,
 * `updatedAt` as JavaScript's toISOString() writes it. docs/kanban.md; `npm run bench:kanban`.
 */
export function boardJsonQuery(v: Viewer, q: KanbanTicketsQuery): SQL {
  return sql`
    WITH cards AS (
      SELECT ${tickets.id} AS id, ${tickets.uuid} AS uuid, ${tickets.status} AS status, ${tickets.queueId} AS queue_id,
        ${tickets.updatedAt} AS updated_at, ${tickets.lastMessage} AS last_message, ${tickets.unreadMessages} AS unread,
        ${tickets.contactId} AS contact_id, ${tickets.userId} AS user_id
      FROM ${tickets} WHERE ${boardWhere(v, q)}
      ORDER BY ${tickets.updatedAt} DESC LIMIT ${KANBAN_TICKET_LIMIT}),
    tagged AS (
      SELECT tt.ticket_id, json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color) ORDER BY g.kanban DESC, tt.created_at DESC, g.id) AS list
      FROM ticket_tags tt JOIN tags g ON g.id = tt.tag_id
      WHERE tt.ticket_id IN (SELECT id FROM cards) GROUP BY tt.ticket_id),
    extra AS (
      SELECT f.contact_id, json_agg(json_build_object('id', f.id, 'name', f.name, 'value', f.value) ORDER BY f.id) AS list
      FROM contact_custom_fields f
      WHERE f.company_id = ${v.companyId} AND f.contact_id IN (SELECT contact_id FROM cards) GROUP BY f.contact_id)
    SELECT json_build_object('tickets', coalesce(json_agg(json_build_object(
      'id', c.id, 'uuid', c.uuid, 'status', c.status, 'queueId', c.queue_id,
      'updatedAt', to_char(c.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'lastMessage', c.last_message, 'unreadMessages', c.unread,
      'tags', coalesce(tagged.list, '[]'),
      'contact', json_build_object('id', ct.id, 'name', ct.name, 'urlPicture', ct.profile_pic_url, 'extraInfo', coalesce(extra.list, '[]')),
      'user', CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'name', u.name) END
    ) ORDER BY c.id), '[]'))::text AS board
    FROM cards c
    JOIN contacts ct ON ct.id = c.contact_id
    LEFT JOIN users u ON u.id = c.user_id
    LEFT JOIN tagged ON tagged.ticket_id = c.id
    LEFT JOIN extra ON extra.contact_id = c.contact_id`;
}

/** The board as JSON text, sent as it is (the route's schema documents it; PostgreSQL built it to that shape). */
export async function boardJson(db: DbOrTx, v: Viewer, q: KanbanTicketsQuery): Promise<string> {
  const { rows } = await db.execute<{ board: string }>(boardJsonQuery(v, q));
  return rows[0]?.board ?? '{"tickets":[]}';
}
