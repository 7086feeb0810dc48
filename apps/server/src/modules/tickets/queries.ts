import { idParam, type Ticket } from '@balcao/contracts';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contacts, contactTags, queues, tickets, ticketTags, users, whatsapps } from '../../db/schema/index.js';
import { presentContact } from '../contacts/presenter.js';
import { extraInfoJson } from '../contacts/queries.js';
import { tagRefsJson } from '../tags/queries.js';
import { presentTicket, type TicketRow } from './presenter.js';

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ticketWithJoins = {
  ticket: tickets,
  contact: contacts,
  queue: { id: queues.id, name: queues.name, color: queues.color },
  user: { id: users.id, name: users.name },
  whatsapp: {
    id: whatsapps.id,
    name: whatsapps.name,
    expiresTicket: whatsapps.expiresTicket,
    groupAsTicket: whatsapps.groupAsTicket,
    channel: whatsapps.channel,
    hasFarewell: sql<boolean>`(btrim(${whatsapps.complationMessage}) <> '' OR btrim(${whatsapps.ratingMessage}) <> '')`,
  },
  // The includes ride on each row as JSON arrays, so a page with everything it shows is one statement.
  tags: tagRefsJson(ticketTags, sql`${ticketTags.ticketId} = ${tickets.id}`),
  contactTags: tagRefsJson(contactTags, sql`${contactTags.contactId} = ${contacts.id}`),
  extraInfo: extraInfoJson(contacts.id),
};

/** The rows of the tickets matching `where` with their joins, in one statement (`orderBy`: in that order). */
function selectTicketRows(db: DbOrTx, where: SQL, orderBy?: SQL[]) {
  const query = db
    .select(ticketWithJoins)
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .where(where)
    .$dynamic();
  return orderBy ? query.orderBy(...orderBy) : query;
}

/** Full tickets (the `GET /tickets/u/{uuid}` shape) matching `where`, in one statement whatever their number. */
export async function loadTickets(db: DbOrTx, where: SQL): Promise<Ticket[]> {
  return (await selectTicketRows(db, where)).map(presentRow);
}

type TicketRowWithJoins = Awaited<ReturnType<typeof selectTicketRows>>[number];
const presentRow = (row: TicketRowWithJoins): Ticket =>
  presentTicket(row.ticket, {
    contact: presentContact(row.contact, row.extraInfo, row.contactTags),
    queue: row.queue,
    user: row.user,
    whatsapp: row.whatsapp,
    tags: row.tags,
  });

/** A page's tickets by id in list order; one named prepared statement per database handle and direction, so it is planned once. */
function preparePageByIds(db: DbOrTx, direction: 'ASC' | 'DESC') {
  const dir = direction === 'ASC' ? asc : desc;
  const where = and(eq(tickets.companyId, sql.placeholder('companyId')), sql`${tickets.id} = any(${sql.placeholder('ids')}::int[])`) as SQL;
  return selectTicketRows(db, where, [dir(tickets.updatedAt), dir(tickets.id)]).prepare(`tickets_page_by_ids_${direction.toLowerCase()}`);
}
const pagesByIds = new WeakMap<DbOrTx, Partial<Record<'ASC' | 'DESC', ReturnType<typeof preparePageByIds>>>>();

/** Full tickets of the company with these ids, in list order (`updatedAt`, then id). */
export async function loadTicketsByIds(db: DbOrTx, companyId: number, ids: number[], direction: 'ASC' | 'DESC'): Promise<Ticket[]> {
  if (!ids.length) return [];
  const prepared = pagesByIds.get(db) ?? {};
  pagesByIds.set(db, prepared);
  const query = (prepared[direction] ??= preparePageByIds(db, direction));
  return (await query.execute({ companyId, ids })).map(presentRow);
}

/** The full ticket with its includes, or undefined. */
export async function loadTicket(db: DbOrTx, id: number): Promise<Ticket | undefined> {
  const [ticket] = await loadTickets(db, eq(tickets.id, id));
  return ticket;
}

export async function findTicketRow(db: DbOrTx, companyId: number, id: number): Promise<TicketRow | undefined> {
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)));
  return row;
}

/** A ticket of the company by id or uuid as a client sends it (`joinChatBox("42")`, a uuid); undefined for anything else. */
export async function findTicketRowByRef(db: DbOrTx, companyId: number, ref: unknown): Promise<TicketRow | undefined> {
  const text = typeof ref === 'number' ? String(ref) : typeof ref === 'string' ? ref.trim() : '';
  const id = idParam.safeParse(text);
  if (/^\d+$/.test(text)) return id.success ? findTicketRow(db, companyId, id.data) : undefined;
  if (!UUID_PATTERN.test(text)) return undefined;
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.uuid, text)));
  return row;
}

const UNIQUE_VIOLATION = '23505';
export const isUniqueViolation = (err: unknown) => {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; e = e.cause as typeof e, depth++) {
    if (e.code === UNIQUE_VIOLATION) return true;
  }
  return false;
};
