import { getTableColumns, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { ACTIVE_TICKET_PREDICATE, contacts, messages, tickets } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { contactUpsertSet, type ContactInput } from '../../contacts/queries.js';
import type { ContactRow } from '../../contacts/presenter.js';
import type { MessageRow } from '../../messages/presenter.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { includesColumns, type Includes } from '../present-stored.js';
import type { OutgoingValues } from './outgoing-row.js';
import { rowOf, runPrepared, selected } from './prepared.js';

/**
 * A number's first contact (the messages API's first send): the contact, its ticket, the ticket's
 * includes and (`message`) the first outbox row in ONE statement, run as a named prepared statement on
 * the pool (three statements and their round trips before, then two: docs/BENCHMARKS.md, first17,
 * first17d). The contact is `upsertContact`'s insert; the ticket is inserted only when this statement
 * created an active contact (a number another request wrote first is left to `findOrCreateTicket`), and
 * the message only with that ticket. The ticket is inserted already touched by its message (preview,
 * side, time), as `insertOutgoingTouching` would UPDATE it: that UPDATE wrote a second version of a
 * fresh row and its 13 index entries. Only for a company whose webhooks record neither `contact.created`
 * nor (with a message) `message.created` (those facts are written in the rows' transaction).
 *
 * Without a message its commit does not wait for the WAL flush (`synchronous_commit` off for this
 * statement's own transaction): the caller answers only after the message's outbox statement, whose
 * synchronous commit flushes the WAL past this one's, so an answered request is as durable as before and
 * a crash before it loses a contact no answer reported (first17c). With the message it commits as the
 * outbox statement does (the session's setting): the answer's durability is this commit's.
 */

export interface NewContactTicket {
  contact: ContactRow;
  created: boolean;
  /** The new ticket with what presenting it needs; undefined when the contact was not created here. */
  ticket?: { row: TicketRow; includes: Includes };
  /** The first outbox row, stored with the new ticket (claimed for its first send as `insertOutgoingTouching` claims it). */
  message?: MessageRow;
}

export interface TicketValues {
  whatsappId: number;
  status: TicketRow['status'];
  queueId: number | null;
  userId: number | null;
  firstMessageAt: Date;
}

/** The first message's own fields (its ticket, connection and queue are the new ticket's). */
export type FirstMessageValues = Pick<OutgoingValues, 'wid' | 'body' | 'mediaType' | 'mediaUrl' | 'data' | 'nextAttemptAt'>;

const contactColumns = Object.entries(getTableColumns(contacts));
const ticketColumns = Object.entries(getTableColumns(tickets));
const messageColumns = Object.entries(getTableColumns(messages));
const includeNames = ['extra_info', 'contact_tags', 'ticket_tags', 'queue', 'owner', 'hides_numbers'] as const;

/** The statement's text, compiled once per node (the message's claim checks the session's lease, which names this node). */
function compile(ctx: AppContext) {
  const p = (name: string) => sql.placeholder(name);
  const set = Object.entries(contactUpsertSet).map(([key, value]) => sql`${sql.identifier(contacts[key as keyof typeof contactUpsertSet].name)} = ${value}`);
  const included = includesColumns({ ticketId: sql`t.id`, contactId: sql`t.contact_id`, queueId: sql`t.queue_id`, userId: sql`t.user_id`, companyId: sql`t.company_id` });
  const withMessage = sql`${p('withMessage')}::boolean`;
  const query = sql`WITH c AS (
    INSERT INTO contacts (company_id, channel, number, name, remote_jid, is_group, profile_pic_url)
    VALUES (${p('companyId')}, ${p('channel')}, ${p('number')}, ${p('name')}, ${p('remoteJid')}, ${p('isGroup')}, ${p('profilePicUrl')})
    ON CONFLICT (company_id, channel, number) DO UPDATE SET ${sql.join(set, sql`, `)}
    RETURNING *, (xmax = 0) AS created
  ), t AS (
    -- With its message, the ticket as the message's touch leaves it (the message's time in milliseconds, as the app holds it).
    INSERT INTO tickets (company_id, contact_id, whatsapp_id, channel, is_group, status, queue_id, user_id, last_message_at, last_message, last_message_from_me)
    SELECT c.company_id, c.id, ${p('whatsappId')}::int, c.channel, c.is_group, ${p('status')}::text, ${p('queueId')}::int, ${p('userId')}::int,
      CASE WHEN ${withMessage} THEN date_trunc('milliseconds', now()) ELSE ${p('firstMessageAt')}::timestamptz END,
      CASE WHEN ${withMessage} THEN ${p('body')}::text ELSE '' END,
      ${withMessage}
    FROM c WHERE c.created AND c.active
    ON CONFLICT (contact_id, whatsapp_id) WHERE ${ACTIVE_TICKET_PREDICATE} DO NOTHING
    RETURNING *
  ), m AS (
    INSERT INTO messages (company_id, ticket_id, whatsapp_id, queue_id, wid, body, from_me, read, ack, media_type, media_url,
      is_private, is_forwarded, quoted_msg_id, data, send_status, next_attempt_at, send_attempts)
    SELECT t.company_id, t.id, t.whatsapp_id, t.queue_id, ${p('wid')}::text, ${p('body')}::text, true, true, 0, ${p('mediaType')}::text, ${p('mediaUrl')}::text,
      false, false, NULL, ${p('data')}::jsonb, 'pending', ${p('nextAttemptAt')}::timestamptz,
      -- The first send's claim: sent at once unless the session runs on another node.
      CASE WHEN ${ctx.channels.whatsapp.leases.heldElsewhere(sql`t.whatsapp_id`)} THEN 0 ELSE 1 END
    FROM t WHERE ${withMessage}
    RETURNING *
  )
  SELECT ${sql.raw(selected('c', contactColumns))}, c.created, ${sql.raw(selected('t', ticketColumns))},
    ${sql.join(includeNames.map((name) => included[name]), sql`, `)},
    ${sql.raw(selected('m', messageColumns))},
    CASE WHEN ${withMessage} THEN current_setting('synchronous_commit') ELSE set_config('synchronous_commit', 'off', true) END
  FROM c LEFT JOIN t ON true LEFT JOIN m ON true`;
  return new PgDialect().sqlToQuery(query);
}

const compiled = new WeakMap<AppContext, ReturnType<typeof compile>>();

export async function insertNewContactTicket(ctx: AppContext, input: ContactInput, ticket: TicketValues, message?: FirstMessageValues): Promise<NewContactTicket> {
  let statement = compiled.get(ctx);
  if (!statement) compiled.set(ctx, (statement = compile(ctx)));
  const first = message ?? { wid: null, body: '', mediaType: 'chat', mediaUrl: null, data: null, nextAttemptAt: null };
  const values = {
    ...input,
    profilePicUrl: input.profilePicUrl ?? null,
    ...ticket,
    firstMessageAt: ticket.firstMessageAt.toISOString(),
    withMessage: message !== undefined,
    ...first,
    data: first.data == null ? null : JSON.stringify(first.data),
    nextAttemptAt: first.nextAttemptAt?.toISOString() ?? null,
  };
  const [row] = await runPrepared(ctx, 'messages_api_new_contact_ticket', statement, values);
  if (!row) throw new Error('the contact insert returned no row');
  const created = row[contactColumns.length] === true;
  const from = contactColumns.length + 1;
  const includesFrom = from + ticketColumns.length;
  const messageFrom = includesFrom + includeNames.length;
  const includes = Object.fromEntries(includeNames.map((name, i) => [name, row[includesFrom + i]])) as Includes;
  return {
    contact: rowOf<ContactRow>(contactColumns, row, 0),
    created,
    ticket: row[from] === null ? undefined : { row: rowOf<TicketRow>(ticketColumns, row, from), includes },
    message: row[messageFrom] === null ? undefined : rowOf<MessageRow>(messageColumns, row, messageFrom),
  };
}
