import { getTableColumns, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { messages, tickets } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import type { MessageRow } from '../../messages/presenter.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { rowOf, runPrepared, selected } from './prepared.js';

/**
 * An outgoing message (an outbox row) and its ticket's touch in ONE statement, run as a named
 * prepared statement on the pool: no transaction (BEGIN, insert, touch, COMMIT were four round
 * trips) and no query building per call (docs/BENCHMARKS.md, api17b). The touch is
 * `touchTicketAfterMessage`'s for a message from us that counts nothing unread: the preview,
 * its side and its time when the message is the newest, and `updated_at`. Only for a message
 * whose facts no in-transaction subscriber records (`EventBus.wantsInTransaction`): those go
 * through `queueOutgoing`'s transaction.
 */

export interface OutgoingValues {
  companyId: number;
  ticketId: number;
  whatsappId: number | null;
  queueId: number | null;
  wid: string | null;
  body: string;
  mediaType: MessageRow['mediaType'];
  mediaUrl: string | null;
  isForwarded: boolean;
  quotedMsgId: number | null;
  data: unknown;
  nextAttemptAt: Date;
}

const messageColumns = Object.entries(getTableColumns(messages));
const ticketColumns = Object.entries(getTableColumns(tickets));

/** The statement's text, compiled once per node (its lease check names this node). */
function compile(ctx: AppContext) {
  const p = (name: keyof OutgoingValues) => sql.placeholder(name);
  const query = sql`WITH m AS (
    INSERT INTO messages (company_id, ticket_id, whatsapp_id, queue_id, wid, body, from_me, read, ack, media_type, media_url,
      is_private, is_forwarded, quoted_msg_id, data, send_status, next_attempt_at, send_attempts)
    VALUES (${p('companyId')}, ${p('ticketId')}, ${p('whatsappId')}, ${p('queueId')}, ${p('wid')}, ${p('body')}, true, true, 0, ${p('mediaType')}, ${p('mediaUrl')},
      false, ${p('isForwarded')}, ${p('quotedMsgId')}, ${p('data')}::jsonb, 'pending', ${p('nextAttemptAt')},
      -- The first send's claim: sent at once unless the session runs on another node.
      CASE WHEN ${ctx.channels.whatsapp.leases.heldElsewhere(sql`${p('whatsappId')}::int`)} THEN 0 ELSE 1 END)
    RETURNING *
  ), t AS (
    UPDATE tickets SET
      last_message = CASE WHEN tickets.last_message_at <= v.at THEN v.body ELSE tickets.last_message END,
      last_message_from_me = CASE WHEN tickets.last_message_at <= v.at THEN true ELSE tickets.last_message_from_me END,
      last_message_at = GREATEST(tickets.last_message_at, v.at),
      updated_at = now()
    -- The message's time as the app holds it (milliseconds), as the touch in a transaction writes it:
    -- an edit compares the ticket's clock with it (editMessageText).
    FROM (SELECT ticket_id, body, date_trunc('milliseconds', created_at) AS at FROM m) v WHERE tickets.id = v.ticket_id
    RETURNING tickets.*
  )
  SELECT ${sql.raw(selected('m', messageColumns))}, ${sql.raw(selected('t', ticketColumns))} FROM m LEFT JOIN t ON true`;
  return new PgDialect().sqlToQuery(query);
}

const compiled = new WeakMap<AppContext, ReturnType<typeof compile>>();

/** Stores the outbox row and touches its ticket; answers both rows as written (the ticket undefined if it is gone). */
export async function insertOutgoingTouching(ctx: AppContext, values: OutgoingValues): Promise<{ row: MessageRow; touched: TicketRow | undefined }> {
  let statement = compiled.get(ctx);
  if (!statement) compiled.set(ctx, (statement = compile(ctx)));
  const bound = { ...values, data: values.data === null ? null : JSON.stringify(values.data), nextAttemptAt: values.nextAttemptAt.toISOString() };
  const [first] = await runPrepared(ctx, 'outbox_insert_touching', statement, bound);
  if (!first) throw new Error('the outbox insert returned no row');
  const touched = first[messageColumns.length] === null ? undefined : rowOf<TicketRow>(ticketColumns, first, messageColumns.length);
  return { row: rowOf<MessageRow>(messageColumns, first, 0), touched };
}
