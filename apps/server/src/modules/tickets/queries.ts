import { idParam, type Ticket } from '@balcao/contracts';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contacts, queues, tickets, users, whatsapps } from '../../db/schema/index.js';
import { presentContacts } from '../contacts/queries.js';
import { tagsOfTickets } from '../tags/queries.js';
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
};

export interface TicketPage {
  orderBy?: SQL[];
  limit?: number;
  offset?: number;
}

/**
 * The page's rows with their joins, in one statement. The page is chosen on `tickets`
 * alone (`id in (… order by … limit …)`), so the joins run for its rows only.
 */
export function selectTicketRows(db: DbOrTx, where: SQL, page: TicketPage = {}) {
  let ids = db.select({ id: tickets.id }).from(tickets).where(where).$dynamic();
  if (page.orderBy) ids = ids.orderBy(...page.orderBy);
  if (page.limit !== undefined) ids = ids.limit(page.limit);
  if (page.offset) ids = ids.offset(page.offset);
  let query = db
    .select(ticketWithJoins)
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .where(page.limit === undefined ? where : inArray(tickets.id, ids))
    .$dynamic();
  if (page.orderBy) query = query.orderBy(...page.orderBy);
  return query;
}

/**
 * Full tickets (the `GET /tickets/u/{uuid}` shape) matching `where`, in a constant
 * number of queries whatever the page size: the rows with their joins, then the
 * ticket tags and the contacts' extra info and tags of the whole page at once.
 */
export async function loadTickets(db: DbOrTx, where: SQL, page: TicketPage = {}): Promise<Ticket[]> {
  const rows = await selectTicketRows(db, where, page);
  if (rows.length === 0) return [];

  const contactRows = [...new Map(rows.map((r) => [r.contact.id, r.contact])).values()];
  const [contactList, tagsOf] = await Promise.all([
    presentContacts(db, contactRows),
    tagsOfTickets(db, rows.map((r) => r.ticket.id)),
  ]);
  const contactOf = new Map(contactList.map((c) => [c.id, c]));
  return rows.map((row) =>
    presentTicket(row.ticket, {
      contact: contactOf.get(row.contact.id)!,
      queue: row.queue,
      user: row.user,
      whatsapp: row.whatsapp,
      tags: tagsOf.get(row.ticket.id) ?? [],
    }),
  );
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
