import { ACTIVE_TICKET_STATUSES, idParam, type Ticket, type TicketStatus } from '@balcao/contracts';
import { and, desc, eq, getTableColumns, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { ACTIVE_TICKET_PREDICATE, contacts, queues, tickets, users, whatsapps } from '../../db/schema/index.js';
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

export interface TicketTarget {
  companyId: number;
  contactId: number;
  whatsappId: number;
  channel: TicketRow['channel'];
  isGroup: boolean;
  /** The status a new (or reopened) ticket gets: pending, or group for groups kept out of the ticket flow. */
  status: TicketStatus;
  /** The queue of a new ticket (asked only when one is created). */
  queueId: () => Promise<number | null>;
  /** Minutes within which a closed ticket is reopened instead of a new one (0: never). */
  reopenWithinMinutes: number;
  importedAt?: Date;
  /** The first message's time: a new ticket's last-message clock starts there (history imports are in the past). */
  firstMessageAt: Date;
}

export interface FoundTicket {
  ticket: TicketRow;
  created: boolean;
  reopened: boolean;
}

const UNIQUE_VIOLATION = '23505';
export const isUniqueViolation = (err: unknown) => {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; e = e.cause as typeof e, depth++) {
    if (e.code === UNIQUE_VIOLATION) return true;
  }
  return false;
};

/**
 * The contact's live ticket on this connection, else a recently closed one reopened,
 * else a new one. The partial unique index (one live ticket per contact and
 * connection) makes concurrent callers converge: an insert that loses the race does
 * nothing, a reopen that loses it fails with a unique violation, and both retry the lookup.
 */
export async function findOrCreateTicket(db: DbOrTx, target: TicketTarget): Promise<FoundTicket> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [live] = await db
      .select()
      .from(tickets)
      .where(
        and(eq(tickets.contactId, target.contactId), eq(tickets.whatsappId, target.whatsappId), inArray(tickets.status, [...ACTIVE_TICKET_STATUSES])),
      )
      .limit(1);
    if (live) return { ticket: live, created: false, reopened: false };

    if (target.reopenWithinMinutes > 0) {
      try {
        const reopened = await reopenRecentTicket(db, target);
        if (reopened) return { ticket: reopened, created: false, reopened: true };
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        continue;
      }
    }

    const [inserted] = await db
      .insert(tickets)
      .values({
        companyId: target.companyId,
        contactId: target.contactId,
        whatsappId: target.whatsappId,
        channel: target.channel,
        isGroup: target.isGroup,
        status: target.status,
        queueId: await target.queueId(),
        importedAt: target.importedAt ?? null,
        lastMessageAt: target.firstMessageAt,
      })
      .onConflictDoNothing({ target: [tickets.contactId, tickets.whatsappId], where: ACTIVE_TICKET_PREDICATE })
      .returning();
    if (inserted) return { ticket: inserted, created: true, reopened: false };
  }
  throw new Error('could not find or create a ticket');
}

async function reopenRecentTicket(db: DbOrTx, target: TicketTarget): Promise<TicketRow | undefined> {
  const since = new Date(Date.now() - target.reopenWithinMinutes * 60_000);
  const [recent] = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(
      and(
        eq(tickets.contactId, target.contactId),
        eq(tickets.whatsappId, target.whatsappId),
        eq(tickets.status, 'closed'),
        gt(tickets.closedAt, since),
      ),
    )
    .orderBy(desc(tickets.closedAt))
    .limit(1);
  if (!recent) return undefined;
  const [row] = await db
    .update(tickets)
    .set({ status: target.status, closedAt: null, userId: null, ratingRequestedAt: null, npsAttempts: 0 })
    .where(and(eq(tickets.id, recent.id), eq(tickets.status, 'closed')))
    .returning();
  return row;
}

/** After a message was stored: last message, its time and side, and the unread count. */
export async function touchTicketAfterMessage(
  db: DbOrTx,
  ticketId: number,
  m: { body: string; fromMe: boolean; at: Date; countUnread: boolean },
): Promise<TicketRow | undefined> {
  const [row] = await db
    .update(tickets)
    .set({
      lastMessage: sql`CASE WHEN ${tickets.lastMessageAt} <= ${m.at} THEN ${m.body} ELSE ${tickets.lastMessage} END`,
      lastMessageFromMe: sql`CASE WHEN ${tickets.lastMessageAt} <= ${m.at} THEN ${m.fromMe} ELSE ${tickets.lastMessageFromMe} END`,
      lastMessageAt: sql`GREATEST(${tickets.lastMessageAt}, ${m.at})`,
      unreadMessages: m.countUnread ? sql`${tickets.unreadMessages} + 1` : tickets.unreadMessages,
      // A customer's answer re-arms the inactivity message.
      inactiveMessageSentAt: m.fromMe ? tickets.inactiveMessageSentAt : null,
    })
    .where(eq(tickets.id, ticketId))
    .returning(getTableColumns(tickets));
  return row;
}
