import { getTableColumns, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { contacts, messages, tickets } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import type { ContactRow } from '../../contacts/presenter.js';
import type { MessageRow } from '../../messages/presenter.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { includesColumns, type Includes } from '../present-stored.js';
import { rowOf, runPrepared, selected } from './prepared.js';
import type { StatementMessage } from './inbound-known.js';

/**
 * The first messages of new customers (chats with no contact yet) in ONE statement, run as a named
 * prepared statement on the pool: each chat's contact, its ticket on each connection — inserted already
 * showing its messages (preview, side, time, unread count) and in the connection's queue when it has
 * exactly one —, the ticket's `create` log entry and the messages in the given order, returning the rows
 * and what presenting them needs. Before: per new customer a read, BEGIN, the contact insert, two ticket
 * reads, the queue read, the ticket and log inserts, the message insert, the ticket's touch, COMMIT and the
 * includes read (docs/BENCHMARKS.md, new10).
 * Every insert is a plain one: a contact another writer created meanwhile (or a message already stored)
 * fails the whole statement with a unique violation, so nothing is written and the caller takes the
 * transaction path, which converges on the existing rows (one contact, one ticket). Only non-group chats,
 * no import, no group member, no quote of a message of the same list, one chat input per chat; only for
 * companies whose webhooks record neither `contact.created` nor `message.created` (those facts are written
 * in the rows' transaction).
 */

/** A stored message with its new chat and its new ticket as every message of the list left it. */
export interface NewChatStored {
  message: MessageRow;
  chat: ContactRow;
  ticket: TicketRow;
  includes: Includes;
}

const messageColumns = Object.entries(getTableColumns(messages));
const ticketColumns = Object.entries(getTableColumns(tickets));
const contactColumns = Object.entries(getTableColumns(contacts));

function compile() {
  const included = includesColumns({ ticketId: sql`t.id`, contactId: sql`t.contact_id`, queueId: sql`t.queue_id`, userId: sql`t.user_id`, companyId: sql`t.company_id` });
  const chatOf = (alias: string) => sql.raw(`c.company_id = ${alias}."companyId" AND c.channel = ${alias}.channel AND c.number = ${alias}.number`);
  const query = sql`WITH v AS (
    SELECT * FROM jsonb_to_recordset(${sql.placeholder('items')}::jsonb) AS v(ord int, "companyId" int, channel text, number text, name text,
      "pictureUrl" text, "remoteJid" text, "whatsappId" int, wid text, body text, "fromMe" boolean, "mediaType" text, "mediaUrl" text,
      "isForwarded" boolean, "quotedWid" text, data jsonb, at timestamptz)
  ), c AS (
    -- Each chat from its first message, created in the order of those (as one by one).
    INSERT INTO contacts (company_id, channel, number, name, remote_jid, is_group, profile_pic_url)
    SELECT "companyId", channel, number, name, "remoteJid", false, "pictureUrl"
    FROM (SELECT DISTINCT ON ("companyId", channel, number) * FROM v ORDER BY "companyId", channel, number, ord) f
    ORDER BY ord
    RETURNING *
  ), f AS (
    -- Each (chat, connection)'s ticket as its messages leave it: the newest message's preview (the later one on a tie), the unread count.
    SELECT DISTINCT ON (c.id, v."whatsappId") c.id AS "contactId", v."whatsappId", v.body, v."fromMe", v.at,
      count(*) FILTER (WHERE NOT v."fromMe") OVER w AS unread, min(v.ord) OVER w AS first
    FROM v JOIN c ON ${chatOf('v')}
    WINDOW w AS (PARTITION BY c.id, v."whatsappId")
    ORDER BY c.id, v."whatsappId", v.at DESC, v.ord DESC
  ), t AS (
    INSERT INTO tickets (company_id, contact_id, whatsapp_id, channel, is_group, status, queue_id, last_message_at, last_message, last_message_from_me, unread_messages)
    SELECT c.company_id, c.id, f."whatsappId", c.channel, false, 'pending',
      -- A connection with exactly one queue puts its tickets there.
      (SELECT CASE WHEN count(*) = 1 THEN min(q.queue_id) END FROM whatsapp_queues q WHERE q.whatsapp_id = f."whatsappId"),
      f.at, f.body, f."fromMe", f.unread
    FROM f JOIN c ON c.id = f."contactId"
    ORDER BY f.first
    RETURNING *
  ), l AS (
    INSERT INTO ticket_logs (company_id, ticket_id, type, queue_id) SELECT company_id, id, 'create', queue_id FROM t ORDER BY id
  ), m AS (
    INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, queue_id, wid, body, from_me, read, ack, media_type, media_url,
      is_forwarded, quoted_msg_id, data, created_at, updated_at)
    SELECT v."companyId", t.id, CASE WHEN v."fromMe" THEN NULL ELSE c.id END, v."whatsappId", t.queue_id, v.wid, v.body, v."fromMe",
      v."fromMe", CASE WHEN v."fromMe" THEN 1 ELSE 0 END, v."mediaType", v."mediaUrl", v."isForwarded",
      (SELECT q.id FROM messages q WHERE q.whatsapp_id = v."whatsappId" AND q.wid = v."quotedWid"), v.data, v.at, v.at
    FROM v JOIN c ON ${chatOf('v')} JOIN t ON t.contact_id = c.id AND t.whatsapp_id = v."whatsappId"
    -- Ids follow the given order.
    ORDER BY v.ord
    RETURNING *
  )
  SELECT ${sql.raw(selected('m', messageColumns))}, ${sql.raw(selected('t', ticketColumns))}, ${sql.raw(selected('c', contactColumns))},
    -- A new contact and ticket have no tags, no custom fields and no owner: only the queue and the LGPD flag are read.
    ${included.queue}, ${included.hides_numbers}
  FROM m JOIN t ON t.id = m.ticket_id JOIN c ON c.id = t.contact_id
  ORDER BY m.id`;
  return new PgDialect().sqlToQuery(query);
}

let compiled: ReturnType<typeof compile> | undefined;

/** The stored messages in the given order (wids distinct per connection). Throws the unique violation when a chat or message exists already. */
export async function storeNewChats(ctx: Pick<AppContext, 'db'>, list: StatementMessage[]): Promise<NewChatStored[]> {
  compiled ??= compile();
  const rows = await runPrepared(ctx, 'inbound_store_new_chats', compiled, { items: JSON.stringify(list.map((m, ord) => ({ ...m, ord }))) });
  const ticketFrom = messageColumns.length;
  const chatFrom = ticketFrom + ticketColumns.length;
  const includesFrom = chatFrom + contactColumns.length;
  return rows.map((row) => ({
    message: rowOf<MessageRow>(messageColumns, row, 0),
    ticket: rowOf<TicketRow>(ticketColumns, row, ticketFrom),
    chat: rowOf<ContactRow>(contactColumns, row, chatFrom),
    includes: {
      extra_info: [],
      contact_tags: [],
      ticket_tags: [],
      queue: row[includesFrom] as Includes['queue'],
      owner: null,
      hides_numbers: row[includesFrom + 1] as Includes['hides_numbers'],
    },
  }));
}
