import { getTableColumns, sql, type Column } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { ACTIVE_TICKET_PREDICATE, contacts, messages, tickets } from '../../../db/schema/index.js';
import type { ContactRow } from '../../contacts/presenter.js';
import type { AppContext } from '../../../http/context.js';
import type { MessageRow } from '../../messages/presenter.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { includesColumns, type Includes } from '../present-stored.js';
import type { Db } from '../../../db/client.js';
import { GroupCommit, groupCommitPerDb } from './group-commit.js';
import { rowOf, runPrepared, selected } from './prepared.js';
import { touchSet } from './ticket-rows.js';

/**
 * Customer messages of known, unchanged contacts whose tickets are live (the common case under
 * load) in ONE statement, run as a named prepared statement on the pool: the chats' contacts read
 * by their unique key and checked unchanged (`isStale`, in SQL), the live tickets read, the
 * messages inserted in the given order (ON CONFLICT DO NOTHING: a redelivery inserts nothing), each
 * ticket touched once (`touchSet`, as `touchTicketsAfterMessages`), and the includes the presenter
 * needs, and the raw inbound events of each stored list marked processed (the same commit: marked
 * iff stored) — instead of a read before, BEGIN, four statements built by Drizzle and COMMIT, and a
 * mark statement after (docs/BENCHMARKS.md, cpu10, store19 and fold19).
 * Group commit: the lists handed in while a statement runs share the next one (each lane's batch
 * is a group of it), so a busy node runs fewer, larger statements, and an idle one waits for none.
 * All or nothing per list: when a message's contact is unknown or changed, or has no live ticket on
 * its connection (a ticket to create or reopen), nothing of its list is written and its caller takes
 * the transaction path. Only for companies whose webhooks do not record `message.created` (that
 * fact is written in the message's transaction).
 */

/** A customer message as the one-statement paths store it (this one, and `storeNewChats` for new chats). */
export interface StatementMessage {
  companyId: number;
  /** The chat, by its contact's unique key. */
  channel: ContactRow['channel'];
  number: string;
  /** What the message says of the chat (`isStale`'s input: the name already trimmed, or the number). */
  name: string;
  pictureUrl: string | null;
  remoteJid: string;
  whatsappId: number;
  wid: string;
  body: string;
  fromMe: boolean;
  mediaType: MessageRow['mediaType'];
  mediaUrl: string | null;
  isForwarded: boolean;
  /** Resolved against messages stored before the statement (a quote of the same batch goes the transaction path). */
  quotedWid: string | null;
  data: unknown;
  at: Date;
}

/** A stored message with its chat, its ticket as found before the statement and after it, and the ticket's includes. */
export interface KnownStored {
  message: MessageRow;
  chat: ContactRow;
  /** The ticket after every message of the statement. */
  ticket: TicketRow;
  /** What the touch changed, as it stood before the statement. */
  before: Pick<TicketRow, 'lastMessage' | 'lastMessageFromMe' | 'lastMessageAt' | 'inactiveMessageSentAt' | 'unreadMessages'>;
  includes: Includes;
}

const messageColumns = Object.entries(getTableColumns(messages));
const contactColumns = Object.entries(getTableColumns(contacts));
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
    SELECT * FROM jsonb_to_recordset(${sql.placeholder('items')}::jsonb) AS v(ord int, grp int, "companyId" int, channel text, number text, name text,
      "pictureUrl" text, "remoteJid" text, "whatsappId" int, wid text, body text, "fromMe" boolean, "mediaType" text, "mediaUrl" text,
      "isForwarded" boolean, "quotedWid" text, data jsonb, at timestamptz)
  ), c AS (
    SELECT * FROM contacts WHERE (company_id, channel, number) IN (SELECT "companyId", channel, number FROM v)
  ), vc AS (
    -- Each message's chat, and whether the message leaves it as it is (contacts/queries.ts isStale, negated).
    SELECT v.*, c.id AS "contactId", c.id IS NOT NULL
      AND NOT (c.name = c.number AND v.name <> v.number)
      AND NOT (COALESCE(v."pictureUrl", '') <> '' AND COALESCE(c.picture_source_url, '') = '' AND v."pictureUrl" IS DISTINCT FROM c.profile_pic_url)
      AND NOT (v."remoteJid" <> '' AND v."remoteJid" IS DISTINCT FROM c.remote_jid) AS fresh
    FROM v LEFT JOIN c ON c.company_id = v."companyId" AND c.channel = v.channel AND c.number = v.number
  ), live AS (
    -- Locked before the messages draw their ids, so a ticket's messages commit in id order (the order
    -- the behaviours' turns follow), and read as the lock leaves them.
    SELECT * FROM tickets
    WHERE contact_id IN (SELECT id FROM c) AND ${ACTIVE_TICKET_PREDICATE}
      AND (contact_id, whatsapp_id) IN (SELECT "contactId", "whatsappId" FROM vc)
    ORDER BY id FOR UPDATE
  ), ok AS (
    -- The lists whose every message has its unchanged chat and its live ticket: the others write nothing.
    SELECT grp FROM vc GROUP BY grp
    HAVING bool_and(fresh AND EXISTS (SELECT 1 FROM live l WHERE l.contact_id = vc."contactId" AND l.whatsapp_id = vc."whatsappId"))
  ), m AS (
    INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, queue_id, wid, body, from_me, read, ack, media_type, media_url,
      is_forwarded, quoted_msg_id, data, created_at, updated_at)
    SELECT v."companyId", l.id, CASE WHEN v."fromMe" THEN NULL ELSE v."contactId" END, v."whatsappId", l.queue_id, v.wid, v.body, v."fromMe",
      v."fromMe", CASE WHEN v."fromMe" THEN 1 ELSE 0 END, v."mediaType", v."mediaUrl", v."isForwarded",
      (SELECT q.id FROM messages q WHERE q.whatsapp_id = v."whatsappId" AND q.wid = v."quotedWid"), v.data, v.at, v.at
    FROM vc v JOIN live l ON l.contact_id = v."contactId" AND l.whatsapp_id = v."whatsappId"
    WHERE v.grp IN (SELECT grp FROM ok)
    -- Ids follow the given order (each lane's).
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
  ), marked AS (
    -- The stored lists' raw events, processed with them (the ingest's timer marks the others).
    -- The stored messages keep their raw items (messages.data): the envelope is not kept twice.
    UPDATE inbound_events SET processed_at = now(), payload = '{}'::jsonb, last_error = NULL
    WHERE id IN (SELECT e.id FROM jsonb_to_recordset(${sql.placeholder('events')}::jsonb) AS e(id int, grp int) WHERE e.grp IN (SELECT grp FROM ok))
  )
  SELECT (SELECT COALESCE(array_agg(grp), '{}') FROM ok), ${sql.raw(selected('m', messageColumns))}, ${sql.raw(selected('t', ticketColumns))},
    ${sql.raw(beforeColumns.map(([, c]) => `l."${c.name}"`).join(', '))}, ${sql.raw(selected('c', contactColumns))},
    ${sql.join(includeNames.map((name) => included[name]), sql`, `)}
  FROM (SELECT 1) one
  LEFT JOIN (m JOIN t ON t.id = m.ticket_id JOIN live l ON l.id = m.ticket_id JOIN c ON c.id = l.contact_id) ON true
  ORDER BY m.id`;
  return new PgDialect().sqlToQuery(query);
}

let compiled: ReturnType<typeof compile> | undefined;

/** A lane's batch: its messages, and the raw inbound events they came from (marked processed by the statement that stores them). */
interface KnownList {
  list: StatementMessage[];
  events: number[];
}

/**
 * Group commit per pool. Two statements in flight, not one: a statement waiting on a ticket's row
 * lock (an agent's change, a sweep) holds up only the lanes it carries while the other serves the
 * rest (the same cost per message measured with one or two). At most 200 messages per statement.
 */
const knownStore = groupCommitPerDb((db: Db) => new GroupCommit((lists: KnownList[]) => storeGroups({ db }, lists), { inFlight: 2, maxSize: 200, size: (l) => l.list.length }));

/**
 * The stored messages in the given order (a redelivery left out); undefined when a message needs the
 * transaction path (nothing of the list written). `events`: the raw inbound events the list came from,
 * marked processed by the same statement when it stores the list, and only then.
 */
export function storeKnownMessages(ctx: Pick<AppContext, 'db'>, list: StatementMessage[], events: number[] = []): Promise<KnownStored[] | undefined> {
  return knownStore(ctx.db).run({ list, events });
}

/** One statement for several lists (groups): each list's stored messages, or undefined for a list that wrote nothing. */
async function storeGroups(ctx: Pick<AppContext, 'db'>, groups: KnownList[]): Promise<(KnownStored[] | undefined)[]> {
  compiled ??= compile();
  let ord = 0;
  const items = JSON.stringify(groups.flatMap(({ list }, grp) => list.map((m) => ({ ...m, ord: ord++, grp }))));
  const events = JSON.stringify(groups.flatMap(({ events }, grp) => events.map((id) => ({ id, grp }))));
  const rows = await runPrepared(ctx, 'inbound_store_known', compiled, { items, events });
  const ok = new Set((rows[0]?.[0] as number[] | undefined) ?? []);
  const ticketFrom = 1 + messageColumns.length;
  const beforeFrom = ticketFrom + ticketColumns.length;
  const chatFrom = beforeFrom + beforeColumns.length;
  const includesFrom = chatFrom + contactColumns.length;
  const byKey = new Map<string, KnownStored>();
  for (const row of rows) {
    if (row[1] === null) continue;
    const message = rowOf<MessageRow>(messageColumns, row, 1);
    byKey.set(`${message.whatsappId}:${message.wid}`, {
      message,
      chat: rowOf<ContactRow>(contactColumns, row, chatFrom),
      ticket: rowOf<TicketRow>(ticketColumns, row, ticketFrom),
      before: rowOf<KnownStored['before']>(beforeColumns, row, beforeFrom),
      includes: Object.fromEntries(includeNames.map((name, i) => [name, row[includesFrom + i]])) as Includes,
    });
  }
  // Rows come in id order, which is each list's order; a message given twice is answered at its first place.
  return groups.map(({ list }, grp) => {
    if (!ok.has(grp)) return undefined;
    return list.flatMap((m) => {
      const key = `${m.whatsappId}:${m.wid}`;
      const stored = byKey.get(key);
      byKey.delete(key);
      return stored ? [stored] : [];
    });
  });
}
