import { KANBAN_TICKET_LIMIT, type KanbanTicket, type KanbanTicketsQuery, type Tag } from '@balcao/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
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

const today = () => sql`current_date`;
const dayParam = (day: string | undefined) => (day ? sql`${day}::date` : today());

/**
 * `GET /ticket/kanban` → `{ tickets }`: the live tickets of the selected queues (default: the
 * caller's queues) the caller may see, last active between the two days, in one statement:
 * tags (the latest lane first) and extra info are aggregated per row, no per-ticket query.
 */
export async function listBoardTickets(db: DbOrTx, v: Viewer, q: KanbanTicketsQuery): Promise<{ tickets: KanbanTicket[] }> {
  const queueIds = q.queueIds ?? v.queueIds;
  const tagList = sql<KanbanTicket['tags']>`coalesce((
    select json_agg(json_build_object('id', ${tags.id}, 'name', ${tags.name}, 'color', ${tags.color})
      order by ${tags.kanban} desc, ${ticketTags.createdAt} desc, ${tags.id})
    from ${ticketTags} join ${tags} on ${tags.id} = ${ticketTags.tagId}
    where ${ticketTags.ticketId} = ${tickets.id}), '[]'::json)`;
  const extraInfo = sql<KanbanTicket['contact']['extraInfo']>`coalesce((
    select json_agg(json_build_object('id', ${contactCustomFields.id}, 'name', ${contactCustomFields.name}, 'value', ${contactCustomFields.value})
      order by ${contactCustomFields.id})
    from ${contactCustomFields} where ${contactCustomFields.contactId} = ${contacts.id}), '[]'::json)`;
  const rows = await db
    .select({
      id: tickets.id,
      uuid: tickets.uuid,
      status: tickets.status,
      queueId: tickets.queueId,
      updatedAt: tickets.updatedAt,
      lastMessage: tickets.lastMessage,
      unreadMessages: tickets.unreadMessages,
      tags: tagList,
      contact: { id: contacts.id, name: contacts.name, urlPicture: contacts.profilePicUrl, extraInfo },
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
  return {
    tickets: rows
      .map(({ userId, userName, updatedAt, ...row }) => ({
        ...row,
        updatedAt: updatedAt.toISOString(),
        user: userId === null ? null : { id: userId, name: userName ?? '' },
      }))
      .sort((a, b) => a.id - b.id),
  };
}
