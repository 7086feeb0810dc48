import { ACTIVE_TICKET_STATUSES } from '@balcao/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contacts, tickets } from '../../db/schema/index.js';
import type { ContactRow } from '../contacts/presenter.js';
import type { TicketRow } from '../tickets/presenter.js';

/**
 * The contact with this number and its live ticket on the connection, in one statement
 * (most calls write to a known contact mid-conversation; the partial unique index on
 * live tickets answers the join).
 */
export async function contactAndLiveTicket(
  db: DbOrTx,
  where: { companyId: number; channel: ContactRow['channel']; number: string; whatsappId: number },
): Promise<{ contact: ContactRow | null; ticket: TicketRow | null }> {
  const [row] = await db
    .select({ contact: contacts, ticket: tickets })
    .from(contacts)
    .leftJoin(
      tickets,
      and(eq(tickets.contactId, contacts.id), eq(tickets.whatsappId, where.whatsappId), inArray(tickets.status, [...ACTIVE_TICKET_STATUSES])),
    )
    .where(and(eq(contacts.companyId, where.companyId), eq(contacts.channel, where.channel), eq(contacts.number, where.number)))
    .limit(1);
  return { contact: row?.contact ?? null, ticket: row?.ticket ?? null };
}
