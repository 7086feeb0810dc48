import { ACTIVE_TICKET_STATUSES } from '@balcao/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { contacts, tickets } from '../../db/schema/index.js';
import type { ContactRow } from '../contacts/presenter.js';
import type { TicketRow } from '../tickets/presenter.js';

/**
 * The contact with this number and its live ticket on the connection, in one statement
 * (most calls write to a known contact mid-conversation; the partial unique index on
 * live tickets answers the join). Built once per database handle and run as a named prepared
 * statement, as `presentStored`'s: it runs on every call, and building it was CPU the call paid.
 */
function prepareContactAndLiveTicket(db: Db) {
  return db
    .select({ contact: contacts, ticket: tickets })
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
): Promise<{ contact: ContactRow | null; ticket: TicketRow | null }> {
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = prepareContactAndLiveTicket(db)));
  const [row] = await query.execute(where);
  return { contact: row?.contact ?? null, ticket: row?.ticket ?? null };
}
