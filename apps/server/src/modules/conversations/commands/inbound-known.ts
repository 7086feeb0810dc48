import { getTableColumns, sql, type Column } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { ACTIVE_TICKET_PREDICATE, messages, tickets } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import type { MessageRow } from '../../messages/presenter.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { includesColumns, type Includes } from '../present-stored.js';
import { rowOf, runPrepared, selected } from './prepared.js';
import { touchSet } from './ticket-rows.js';

/**
 * Customer messages of known contacts whose tickets are live (the common case under load) in ONE
 * statement, run as a named prepared statement on the pool: the live tickets read, the messages
 * inserted in the given order (ON CONFLICT DO NOTHING: a redelivery inserts nothing), each ticket
 * touched once (`touchSet`, as `touchTicketsAfterMessages`), and the includes the presenter needs —
 * instead of BEGIN, four statements built by Drizzle and COMMIT (docs/BENCHMARKS.md, cpu10).
 * All or nothing: when a message's contact has no live ticket on its connection (a ticket to create
 * or reopen), nothing is written and the caller takes the transaction path. Only for companies whose
 * webhooks do not record `message.created` (that fact is written in the message's transaction).
 */

export interface KnownMessage {
  companyId: number;
  contactId: number;
  whatsappId: number;
  wid: string;
  body: string;
  fromMe: boolean;
  mediaType: MessageRow['mediaType'];
  mediaUrl: string | null;
  isForwarded: boolean;
  /** Resolved against messages stored before this statement (a quote of the same batch goes the transaction path). */
  quotedWid: string | null;
  data: unknown;
  at: Date;
}

/** A stored message with its ticket as found before the statement and after it, and the ticket's includes. */
export interface KnownStored {
  message: MessageRow;
  /** The ticket after every message of the statement. */
  ticket: TicketRow;
  /** What the touch changed, as it stood before the statement. */
  before: Pick<TicketRow, 'lastMessage' | 'lastMessageFromMe' | 'lastMessageAt' | 'inactiveMessageSentAt' | 'unreadMessages'>;
  includes: Includes;
}

const messageColumns = Object.entries(getTableColumns(messages));
const ticketColumns = Object.entries(getTableColumns(tickets));
const beforeColumns: [string, Column][] = [
  ['lastMessage', tickets.lastMessage],
  ['lastMessageFromMe', tickets.lastMessageFromMe],
  ['lastMessageAt', tickets.lastMessageAt],
  ['inactiveMessageSentAt', tickets.inactiveMessageSentAt],
  ['unreadMessages', tickets.unreadMessages],
];
const includeNames = ['extra_info', 'contact_tags', 'ticket_tags', 'queue', 'owner', 'hides_numbers'] as const;

function compile() {
  const set = Object.entries(touchSet).map(([key, value]) => sql`${sql.identifier(tickets[key as keyof typeof touchSet].name)} = ${value}`);
  const included = includesColumns({ ticketId: sql`t.id`, contactId: sql`t.contact_id`, queueId: sql`t.queue_id`, userId: sql`t.user_id`, companyId: sql`t.company_id` });
  const query = sql`WITH v AS (
    SELECT * FROM jsonb_to_recordset(${sql.placeholder('items')}::jsonb) AS v(ord int, "companyId" int, "contactId" int, "whatsappId" int, wid text,
      body text, "fromMe" boolean, "mediaType" text, "mediaUrl" text, "isForwarded" boolean, "quotedWid" text, data jsonb, at timestamptz)
  ), live AS (
    -- Locked before the messages draw their ids, so a ticket's messages commit in id order (the order
    -- the behaviours' turns follow), and read as the lock leaves them.
    SELECT * FROM tickets
    WHERE contact_id IN (SELECT "contactId" FROM v) AND ${ACTIVE_TICKET_PREDICATE}
      AND (contact_id, whatsapp_id) IN (SELECT "contactId", "whatsappId" FROM v)
    ORDER BY id FOR UPDATE
  ), ok AS (
    -- Every message's (contact, connection) has its live ticket: else nothing is written.
    SELECT NOT EXISTS (SELECT 1 FROM v WHERE NOT EXISTS (SELECT 1 FROM live l WHERE l.contact_id = v."contactId" AND l.whatsapp_id = v."whatsappId")) AS all_live
  ), m AS (
    INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, queue_id, wid, body, from_me, read, ack, media_type, media_url,
      is_forwarded, quoted_msg_id, data, created_at, updated_at)
    SELECT v."companyId", l.id, CASE WHEN v."fromMe" THEN NULL ELSE v."contactId" END, v."whatsappId", l.queue_id, v.wid, v.body, v."fromMe",
      v."fromMe", CASE WHEN v."fromMe" THEN 1 ELSE 0 END, v."mediaType", v."mediaUrl", v."isForwarded",
      (SELECT q.id FROM messages q WHERE q.whatsapp_id = v."whatsappId" AND q.wid = v."quotedWid"), v.data, v.at, v.at
    FROM v JOIN live l ON l.contact_id = v."contactId" AND l.whatsapp_id = v."whatsappId"
    WHERE (SELECT all_live FROM ok)
    -- Ids follow the given order (the lane's).
    ORDER BY v.ord
    ON CONFLICT (whatsapp_id, wid) DO NOTHING
    RETURNING *
  ), t AS (
    UPDATE tickets SET ${sql.join(set, sql`, `)}
    FROM (
      -- One touch per ticket: the newest message's preview (the later one on a tie), the unread count, whether the customer spoke.
      SELECT DISTINCT ON (ticket_id) ticket_id AS "ticketId", body, from_me AS "fromMe", created_at AS at,
        count(*) FILTER (WHERE NOT from_me) OVER w AS unread, bool_or(NOT from_me) OVER w AS "customerSpoke"
      FROM m WINDOW w AS (PARTITION BY ticket_id)
      ORDER BY ticket_id, created_at DESC, id DESC
    ) v
    WHERE tickets.id = v."ticketId"
    RETURNING tickets.*
  )
  SELECT (SELECT all_live FROM ok), ${sql.raw(selected('m', messageColumns))}, ${sql.raw(selected('t', ticketColumns))},
    ${sql.raw(beforeColumns.map(([, c]) => `l."${c.name}"`).join(', '))}, ${sql.join(includeNames.map((name) => included[name]), sql`, `)}
  FROM (SELECT 1) one
  LEFT JOIN (m JOIN t ON t.id = m.ticket_id JOIN live l ON l.id = m.ticket_id) ON true
  ORDER BY m.id`;
  return new PgDialect().sqlToQuery(query);
}

let compiled: ReturnType<typeof compile> | undefined;

/** The stored messages in the given order (a redelivery left out); undefined when a message needs a ticket created or reopened (nothing written). */
export async function storeKnownMessages(ctx: AppContext, list: KnownMessage[]): Promise<KnownStored[] | undefined> {
  compiled ??= compile();
  const items = JSON.stringify(list.map((m, ord) => ({ ...m, ord })));
  const rows = await runPrepared(ctx, 'inbound_store_known', compiled, { items });
  if (rows[0]?.[0] !== true) return undefined;
  const ticketFrom = 1 + messageColumns.length;
  const beforeFrom = ticketFrom + ticketColumns.length;
  const includesFrom = beforeFrom + beforeColumns.length;
  return rows
    .filter((row) => row[1] !== null)
    .map((row) => ({
      message: rowOf<MessageRow>(messageColumns, row, 1),
      ticket: rowOf<TicketRow>(ticketColumns, row, ticketFrom),
      before: rowOf<KnownStored['before']>(beforeColumns, row, beforeFrom),
      includes: Object.fromEntries(includeNames.map((name, i) => [name, row[includesFrom + i]])) as Includes,
    }));
}
