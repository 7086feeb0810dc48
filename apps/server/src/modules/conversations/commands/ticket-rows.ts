import { ACTIVE_TICKET_STATUSES, type TicketStatus } from '@balcao/contracts';
import { and, desc, eq, getTableColumns, gt, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { ACTIVE_TICKET_PREDICATE, tickets } from '../../../db/schema/index.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { isUniqueViolation } from '../../tickets/queries.js';

/**
 * Row-level ticket steps run inside a caller's transaction (the inbound message, a
 * forward): they publish nothing themselves.
 */

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
  /** The owner of a new ticket (a forward opens it for the sender); none by default. */
  ownerId?: number;
  /** The first message's time: a new ticket's last-message clock starts there (history imports are in the past). */
  firstMessageAt: Date;
  /** The contact was created just now: it has no ticket yet, so the insert is tried before a lookup. */
  newContact?: boolean;
}

export interface FoundTicket {
  ticket: TicketRow;
  created: boolean;
  reopened: boolean;
}

/**
 * The contact's live ticket on this connection, else a recently closed one reopened,
 * else a new one. The partial unique index (one live ticket per contact and
 * connection) makes concurrent callers converge: an insert that loses the race does
 * nothing, a reopen that loses it fails with a unique violation, and both retry the lookup.
 */
export async function findOrCreateTicket(db: DbOrTx, target: TicketTarget): Promise<FoundTicket> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [live] =
      attempt === 0 && target.newContact
        ? []
        : await db
            .select()
            .from(tickets)
            .where(
              and(eq(tickets.contactId, target.contactId), eq(tickets.whatsappId, target.whatsappId), inArray(tickets.status, [...ACTIVE_TICKET_STATUSES])),
            )
            .limit(1);
    if (live) return { ticket: live, created: false, reopened: false };

    if (target.reopenWithinMinutes > 0 && !(attempt === 0 && target.newContact)) {
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
        userId: target.ownerId ?? null,
        lastMessageAt: target.firstMessageAt,
      })
      .onConflictDoNothing({ target: [tickets.contactId, tickets.whatsappId], where: ACTIVE_TICKET_PREDICATE })
      .returning();
    if (inserted) return { ticket: inserted, created: true, reopened: false };
  }
  throw new Error('could not find or create a ticket');
}

/** A pair for `findOrCreateTickets`: as `TicketTarget`, with the queue known and no reopening. */
export type BulkTicketTarget = Pick<TicketTarget, 'companyId' | 'contactId' | 'whatsappId' | 'channel' | 'isGroup' | 'status' | 'firstMessageAt'> & { queueId: number | null };

/**
 * `findOrCreateTicket` for many contacts at once (a burst of scheduled messages): the live tickets
 * of every pair in one read, the missing ones in one INSERT. A pair whose insert lost the race to
 * another writer (the partial unique index) is read again on the next round. Answers per target, in order.
 */
export async function findOrCreateTickets(db: DbOrTx, targets: BulkTicketTarget[]): Promise<FoundTicket[]> {
  const found = new Map<string, FoundTicket>();
  const pairs = [...new Map(targets.map((t) => [ticketPairKey(t), t])).values()];
  for (let attempt = 0; attempt < 5; attempt++) {
    const missing = pairs.filter((p) => !found.has(ticketPairKey(p)));
    if (missing.length === 0) break;
    for (const [key, ticket] of await liveTicketsOf(db, missing)) found.set(key, { ticket, created: false, reopened: false });
    const absent = missing.filter((p) => !found.has(ticketPairKey(p)));
    if (absent.length === 0) break;
    const inserted = await db
      .insert(tickets)
      .values(absent.map((p) => ({ companyId: p.companyId, contactId: p.contactId, whatsappId: p.whatsappId, channel: p.channel, isGroup: p.isGroup, status: p.status, queueId: p.queueId, lastMessageAt: p.firstMessageAt })))
      .onConflictDoNothing({ target: [tickets.contactId, tickets.whatsappId], where: ACTIVE_TICKET_PREDICATE })
      .returning();
    for (const ticket of inserted) found.set(ticketPairKey(ticket), { ticket, created: true, reopened: false });
  }
  return targets.map((t) => {
    const hit = found.get(ticketPairKey(t));
    if (!hit) throw new Error('could not find or create a ticket');
    return hit;
  });
}

/** A contact and connection pair: at most one live ticket each (the partial unique index). */
export const ticketPairKey = (t: { contactId: number; whatsappId: number | null }) => `${t.contactId}:${t.whatsappId}`;

/** The live tickets of many pairs in one read (by contact, matched on the exact pair here), by `ticketPairKey`. */
export async function liveTicketsOf(db: DbOrTx, pairs: { contactId: number; whatsappId: number | null }[]): Promise<Map<string, TicketRow>> {
  const live = await db
    .select()
    .from(tickets)
    .where(and(inArray(tickets.contactId, [...new Set(pairs.map((p) => p.contactId))]), inArray(tickets.status, [...ACTIVE_TICKET_STATUSES])));
  const wanted = new Set(pairs.map(ticketPairKey));
  return new Map(live.filter((t) => wanted.has(ticketPairKey(t))).map((t) => [ticketPairKey(t), t]));
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
  const [row] = await touchTicketsAfterMessages(db, [{ ticketId, body: m.body, fromMe: m.fromMe, at: m.at, unread: m.countUnread ? 1 : 0, customerSpoke: !m.fromMe }]);
  return row;
}

/** What a ticket's stored messages change on it: the newest message's preview, how many count as unread, whether the customer spoke. */
export interface TicketTouch {
  ticketId: number;
  body: string;
  fromMe: boolean;
  at: Date;
  unread: number;
  customerSpoke: boolean;
}

/**
 * `touchTicketAfterMessage` for several tickets in ONE statement (a lane batch of inbound
 * messages): one touch per ticket, the same outcome as its messages touching it one by one.
 */
export async function touchTicketsAfterMessages(db: DbOrTx, touches: TicketTouch[]): Promise<TicketRow[]> {
  if (touches.length === 0) return [];
  const v = sql`(SELECT * FROM jsonb_to_recordset(${JSON.stringify(touches)}::jsonb)
    AS x("ticketId" int, body text, "fromMe" boolean, at timestamptz, unread int, "customerSpoke" boolean)) AS v`;
  return db
    .update(tickets)
    .set(touchSet)
    .from(v)
    .where(eq(tickets.id, sql`v."ticketId"`))
    .returning(getTableColumns(tickets));
}

const newer = sql`${tickets.lastMessageAt} <= v.at`;

/** What a touch sets, from the `TicketTouch` of the ticket as the row `v` (also the one-statement inbound store's). */
export const touchSet = {
  lastMessage: sql`CASE WHEN ${newer} THEN v.body ELSE ${tickets.lastMessage} END`,
  lastMessageFromMe: sql`CASE WHEN ${newer} THEN v."fromMe" ELSE ${tickets.lastMessageFromMe} END`,
  lastMessageAt: sql`GREATEST(${tickets.lastMessageAt}, v.at)`,
  unreadMessages: sql`${tickets.unreadMessages} + v.unread`,
  // A customer's answer re-arms the inactivity message.
  inactiveMessageSentAt: sql`CASE WHEN v."customerSpoke" THEN NULL ELSE ${tickets.inactiveMessageSentAt} END`,
};
