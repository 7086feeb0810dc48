import { ACTIVE_TICKET_STATUSES } from '@balcao/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { contacts, tickets } from '../../db/schema/index.js';
import type { ContactRow } from '../contacts/presenter.js';
import type { TicketRow } from '../tickets/presenter.js';
import { includesColumns, type Includes } from '../conversations/present-stored.js';

/**
 * The contact with this number and its live ticket on the connection, in one statement
 * (most calls write to a known contact mid-conversation; the partial unique index on
 * live tickets answers the join), with what presenting the ticket adds to its row. Built once
 * per database handle and run as a named prepared statement, as `presentStored`'s: it runs on every call, and building it was CPU the call paid.
 */
function prepareContactAndLiveTicket(db: Db) {
  return db
    .select({
      contact: contacts,
      ticket: tickets,
      // The live ticket's includes: the message's events are presented with them (no presenting read).
      ...includesColumns({ ticketId: sql`${tickets.id}`, contactId: sql`${contacts.id}`, queueId: sql`${tickets.queueId}`, userId: sql`${tickets.userId}`, companyId: sql`${contacts.companyId}` }),
    })
    .from(contacts)
    .leftJoin(
      tickets,
      and(eq(tickets.contactId, contacts.id), eq(tickets.whatsappId, sql.placeholder('whatsappId')), inArray(tickets.status, [...ACTIVE_TICKET_STATUSES])),
    )
    .where(and(eq(contacts.companyId, sql.placeholder('companyId')), eq(contacts.channel, sql.placeholder('channel')), eq(contacts.number, sql.placeholder('number'))))
    .limit(1)
    .prepare('messages_api_contact_live_ticket');
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareContactAndLiveTicket>>();

export async function contactAndLiveTicket(
  db: Db,
  where: { companyId: number; channel: ContactRow['channel']; number: string; whatsappId: number },
): Promise<{ contact: ContactRow | null; ticket: TicketRow | null; includes: Includes | undefined }> {
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = prepareContactAndLiveTicket(db)));
  const [row] = await query.execute(where);
  if (!row) return { contact: null, ticket: null, includes: undefined };
  const { contact, ticket, ...includes } = row;
  return { contact, ticket, includes: ticket ? includes : undefined };
}
