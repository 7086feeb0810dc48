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
        userId: target.ownerId ?? null,
        lastMessageAt: target.firstMessageAt,
      })
      .onConflictDoNothing({ target: [tickets.contactId, tickets.whatsappId], where: ACTIVE_TICKET_PREDICATE })
      .returning();
    if (inserted) return { ticket: inserted, created: true, reopened: false };
  }
  throw new Error('could not find or create a ticket');
}

/**
 * `findOrCreateTicket` for many contacts on one connection (a campaign's batch; no reopening,
 * no owner): their live tickets in one read, the missing ones in one INSERT. A contact whose
 * insert lost a race to a concurrent caller takes the single-contact path. Answers by contact id.
 */
export async function findOrCreateTickets(
  db: DbOrTx,
  target: Omit<TicketTarget, 'contactId' | 'reopenWithinMinutes' | 'ownerId' | 'queueId'> & { queueId: number | null },
  contactIds: number[],
): Promise<Map<number, FoundTicket>> {
  const found = new Map<number, FoundTicket>();
  if (contactIds.length === 0) return found;
  const live = await db
    .select()
    .from(tickets)
    .where(and(inArray(tickets.contactId, contactIds), eq(tickets.whatsappId, target.whatsappId), inArray(tickets.status, [...ACTIVE_TICKET_STATUSES])));
  for (const ticket of live) found.set(ticket.contactId, { ticket, created: false, reopened: false });
  const missing = [...new Set(contactIds)].filter((id) => !found.has(id));
  if (missing.length === 0) return found;
  const { companyId, whatsappId, channel, isGroup, status, queueId, importedAt, firstMessageAt } = target;
  const inserted = await db
    .insert(tickets)
    .values(missing.map((contactId) => ({ companyId, contactId, whatsappId, channel, isGroup, status, queueId, importedAt: importedAt ?? null, lastMessageAt: firstMessageAt })))
    .onConflictDoNothing({ target: [tickets.contactId, tickets.whatsappId], where: ACTIVE_TICKET_PREDICATE })
    .returning();
  for (const ticket of inserted) found.set(ticket.contactId, { ticket, created: true, reopened: false });
  for (const contactId of missing.filter((id) => !found.has(id))) {
    found.set(contactId, await findOrCreateTicket(db, { ...target, contactId, queueId: async () => queueId, reopenWithinMinutes: 0 }));
  }
  return found;
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
