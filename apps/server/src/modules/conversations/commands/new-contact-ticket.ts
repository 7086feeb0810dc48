import { getTableColumns, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { ACTIVE_TICKET_PREDICATE, contacts, tickets } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { contactUpsertSet, type ContactInput } from '../../contacts/queries.js';
import type { ContactRow } from '../../contacts/presenter.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { includesColumns, type Includes } from '../present-stored.js';
import { rowOf, runPrepared, selected } from './prepared.js';

/**
 * A number's first contact (the messages API's first send): the contact, its ticket and the ticket's
 * includes in ONE statement, run as a named prepared statement on the pool (three statements and their
 * round trips before, docs/BENCHMARKS.md, first17). The contact is `upsertContact`'s insert; the ticket
 * is inserted only when this statement created an active contact (a number another request wrote first
 * is left to `findOrCreateTicket`). Only for a company whose webhooks do not record `contact.created`
 * (that fact is written in the contact's transaction).
 *
 * Its commit does not wait for the WAL flush (`synchronous_commit` off for this statement's own transaction): the
 * caller answers only after the message's outbox statement, whose synchronous commit flushes the WAL past this
 * one's, so an answered request is as durable as before and a crash before it loses a contact no answer reported.
 * One flush wait fewer per first send (docs/BENCHMARKS.md, first17c).
 */

export interface NewContactTicket {
  contact: ContactRow;
  created: boolean;
  /** The new ticket with what presenting it needs; undefined when the contact was not created here. */
  ticket?: { row: TicketRow; includes: Includes };
}

export interface TicketValues {
  whatsappId: number;
  status: TicketRow['status'];
  queueId: number | null;
  userId: number | null;
  firstMessageAt: Date;
}

const contactColumns = Object.entries(getTableColumns(contacts));
const ticketColumns = Object.entries(getTableColumns(tickets));
const includeNames = ['extra_info', 'contact_tags', 'ticket_tags', 'queue', 'owner', 'hides_numbers'] as const;

function compile() {
  const p = (name: string) => sql.placeholder(name);
  const set = Object.entries(contactUpsertSet).map(([key, value]) => sql`${sql.identifier(contacts[key as keyof typeof contactUpsertSet].name)} = ${value}`);
  const included = includesColumns({ ticketId: sql`t.id`, contactId: sql`t.contact_id`, queueId: sql`t.queue_id`, userId: sql`t.user_id`, companyId: sql`t.company_id` });
  const query = sql`WITH c AS (
    INSERT INTO contacts (company_id, channel, number, name, remote_jid, is_group, profile_pic_url)
    VALUES (${p('companyId')}, ${p('channel')}, ${p('number')}, ${p('name')}, ${p('remoteJid')}, ${p('isGroup')}, ${p('profilePicUrl')})
    ON CONFLICT (company_id, channel, number) DO UPDATE SET ${sql.join(set, sql`, `)}
    RETURNING *, (xmax = 0) AS created
  ), t AS (
    INSERT INTO tickets (company_id, contact_id, whatsapp_id, channel, is_group, status, queue_id, user_id, last_message_at)
    SELECT c.company_id, c.id, ${p('whatsappId')}::int, c.channel, c.is_group, ${p('status')}::text, ${p('queueId')}::int, ${p('userId')}::int, ${p('firstMessageAt')}::timestamptz
    FROM c WHERE c.created AND c.active
    ON CONFLICT (contact_id, whatsapp_id) WHERE ${ACTIVE_TICKET_PREDICATE} DO NOTHING
    RETURNING *
  )
  SELECT ${sql.raw(selected('c', contactColumns))}, c.created, ${sql.raw(selected('t', ticketColumns))},
    ${sql.join(includeNames.map((name) => included[name]), sql`, `)},
    set_config('synchronous_commit', 'off', true)
  FROM c LEFT JOIN t ON true`;
  return new PgDialect().sqlToQuery(query);
}

let compiled: ReturnType<typeof compile> | undefined;

export async function insertNewContactTicket(ctx: AppContext, input: ContactInput, ticket: TicketValues): Promise<NewContactTicket> {
  compiled ??= compile();
  const values = { ...input, profilePicUrl: input.profilePicUrl ?? null, ...ticket, firstMessageAt: ticket.firstMessageAt.toISOString() };
  const [first] = await runPrepared(ctx, 'messages_api_new_contact_ticket', compiled, values);
  if (!first) throw new Error('the contact insert returned no row');
  const created = first[contactColumns.length] === true;
  const from = contactColumns.length + 1;
  const includesFrom = from + ticketColumns.length;
  const includes = Object.fromEntries(includeNames.map((name, i) => [name, first[includesFrom + i]])) as Includes;
  return {
    contact: rowOf<ContactRow>(contactColumns, first, 0),
    created,
    ticket: first[from] === null ? undefined : { row: rowOf<TicketRow>(ticketColumns, first, from), includes },
  };
}
