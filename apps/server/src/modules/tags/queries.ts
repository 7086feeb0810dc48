import type { Tag } from '@balcao/contracts';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contactTags, ticketTags, tags } from '../../db/schema/index.js';

export type TagRow = typeof tags.$inferSelect;
/** A tag as it rides on a contact or a ticket. */
export type TagRef = { id: number; name: string; color: string };

/** The one place that shapes a tag for the API and the socket. */
export function presentTag(row: TagRow): Tag {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    color: row.color,
    kanban: row.kanban,
    timeLane: row.timeLane,
    nextLaneId: row.nextLaneId,
    rollbackLaneId: row.rollbackLaneId,
    greetingMessageLane: row.greetingMessageLane,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function findTag(db: DbOrTx, companyId: number, id: number): Promise<TagRow | undefined> {
  const [row] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.id, id)));
  return row;
}

/** A tag of the company with this name (any case) and kanban flag. */
export async function findTagByName(db: DbOrTx, companyId: number, name: string, kanban: number): Promise<TagRow | undefined> {
  const [row] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.kanban, kanban), sql`lower(${tags.name}) = lower(${name})`));
  return row;
}

const ref = { id: tags.id, name: tags.name, color: tags.color };

/** SQL: a JSON array of tag refs (name, then id: the order of tagsOfContacts/tagsOfTickets) of one join table's rows where `key`. */
export const tagRefsJson = (table: typeof contactTags | typeof ticketTags, key: SQL) =>
  sql<TagRef[]>`(select coalesce(json_agg(json_build_object('id', ${tags.id}, 'name', ${tags.name}, 'color', ${tags.color}) order by ${tags.name}, ${tags.id}), '[]')
    from ${table} join ${tags} on ${tags.id} = ${table.tagId} where ${key})`;

function groupBy<K>(rows: (TagRef & { key: K })[]): Map<K, TagRef[]> {
  const out = new Map<K, TagRef[]>();
  for (const { key, ...tag } of rows) {
    const list = out.get(key);
    if (list) list.push(tag);
    else out.set(key, [tag]);
  }
  return out;
}

/** The tags of many contacts in one query (lists never load them one contact at a time). */
export async function tagsOfContacts(db: DbOrTx, contactIds: number[]): Promise<Map<number, TagRef[]>> {
  if (contactIds.length === 0) return new Map();
  const rows = await db
    .select({ key: contactTags.contactId, ...ref })
    .from(contactTags)
    .innerJoin(tags, eq(tags.id, contactTags.tagId))
    .where(inArray(contactTags.contactId, contactIds))
    .orderBy(asc(tags.name), asc(tags.id));
  return groupBy(rows);
}

/** The tags of many tickets in one query (the inbox rows' chips, the ticket event). */
export async function tagsOfTickets(db: DbOrTx, ticketIds: number[]): Promise<Map<number, TagRef[]>> {
  if (ticketIds.length === 0) return new Map();
  const rows = await db
    .select({ key: ticketTags.ticketId, ...ref })
    .from(ticketTags)
    .innerJoin(tags, eq(tags.id, ticketTags.tagId))
    .where(inArray(ticketTags.ticketId, ticketIds))
    .orderBy(asc(tags.name), asc(tags.id));
  return groupBy(rows);
}
