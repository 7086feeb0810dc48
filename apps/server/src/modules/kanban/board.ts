import { KANBAN_TICKET_LIMIT, type KanbanTicket, type KanbanTicketsQuery, type Tag } from '@balcao/contracts';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { contactCustomFields, contacts, tags, ticketTags, tickets, users } from '../../db/schema/index.js';
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

/**
 * The board's cards without their lists: the live tickets of the selected queues (default: the
 * caller's queues) the caller may see, last active between the two days.
 */
export function boardTicketsQuery(db: DbOrTx, v: Viewer, q: KanbanTicketsQuery) {
  const queueIds = q.queueIds ?? v.queueIds;
  return db
    .select({
      id: tickets.id,
      uuid: tickets.uuid,
      status: tickets.status,
      queueId: tickets.queueId,
      updatedAt: tickets.updatedAt,
      lastMessage: tickets.lastMessage,
      unreadMessages: tickets.unreadMessages,
      contactId: contacts.id,
      contactName: contacts.name,
      urlPicture: contacts.profilePicUrl,
      userId: users.id,
      userName: users.name,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .where(
      and(
        visibleTicketsWhere(v),
        inArray(tickets.status, [...BOARD_STATUSES]),
        eq(tickets.isGroup, false),
        anyOf(tickets.queueId, queueIds),
        sql`${tickets.updatedAt} >= ${dayParam(q.startDate)} and ${tickets.updatedAt} < ${dayParam(q.endDate)} + 1`,
      ),
    )
    .orderBy(sql`${tickets.updatedAt} desc`)
    .limit(KANBAN_TICKET_LIMIT);
}

/** `col = any($1)` with the ids as ONE array parameter (2,000 placeholders cost more to build and bind). */
const anyId = (col: AnyPgColumn, ids: number[]) => sql`${col} = any(${sql.param(ids)}::int[])`;

function groupBy<K, V>(rows: (V & { key: K })[]): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const { key, ...rest } of rows) {
    const value = rest as unknown as V;
    const list = out.get(key);
    if (list) list.push(value);
    else out.set(key, [value]);
  }
  return out;
}

/**
 * `GET /ticket/kanban` → `{ tickets }` by ticket number, in three set-based statements whatever the
 * board's size: the cards, then the tags of all of them (lanes first, the latest set first), then
 * the extra info of all their contacts (docs/kanban.md; measured by `npm run bench:kanban`).
 */
export async function listBoardTickets(db: DbOrTx, v: Viewer, q: KanbanTicketsQuery): Promise<{ tickets: KanbanTicket[] }> {
  const rows = await boardTicketsQuery(db, v, q);
  if (rows.length === 0) return { tickets: [] };
  const [tagRows, extraRows] = await Promise.all([
    db
      .select({ key: ticketTags.ticketId, id: tags.id, name: tags.name, color: tags.color })
      .from(ticketTags)
      .innerJoin(tags, eq(tags.id, ticketTags.tagId))
      .where(anyId(ticketTags.ticketId, rows.map((r) => r.id)))
      .orderBy(desc(tags.kanban), desc(ticketTags.createdAt), asc(tags.id)),
    db
      .select({ key: contactCustomFields.contactId, id: contactCustomFields.id, name: contactCustomFields.name, value: contactCustomFields.value })
      .from(contactCustomFields)
      .where(and(eq(contactCustomFields.companyId, v.companyId), anyId(contactCustomFields.contactId, [...new Set(rows.map((r) => r.contactId))])))
      .orderBy(asc(contactCustomFields.id)),
  ]);
  const tagsOf = groupBy<number, KanbanTicket['tags'][number]>(tagRows);
  const extraOf = groupBy<number, KanbanTicket['contact']['extraInfo'][number]>(extraRows);
  return {
    tickets: rows
      .map((r) => ({
        id: r.id,
        uuid: r.uuid,
        status: r.status,
        queueId: r.queueId,
        updatedAt: r.updatedAt.toISOString(),
        lastMessage: r.lastMessage,
        unreadMessages: r.unreadMessages,
        tags: tagsOf.get(r.id) ?? [],
        contact: { id: r.contactId, name: r.contactName, urlPicture: r.urlPicture, extraInfo: extraOf.get(r.contactId) ?? [] },
        user: r.userId === null ? null : { id: r.userId, name: r.userName ?? '' },
      }))
      .sort((a, b) => a.id - b.id),
  };
}
