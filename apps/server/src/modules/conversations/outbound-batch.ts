import type { MediaType } from '@balcao/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { messages, tickets, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { inLanes } from '../../jobs/lanes.js';
import type { MessageRow } from '../messages/presenter.js';
import { closeCarrierTickets } from './commands/tickets.js';
import { deliverBatch, presentBatch } from './outbound-deliver-batch.js';

/** As `queueOutgoing`'s lease: the sweeper leaves a row alone this long while its first send is in flight. */
const SEND_LEASE_MS = 60_000;
const ANNOUNCE_LANES = 8;

export interface BatchOutgoing {
  ticketId: number;
  body: string;
  media?: { fileName: string; mimetype: string; mediaType: MediaType };
  /** The ticket was opened only to carry this message: it is closed in the same statement, with its `closed` log (as `markClosed`). */
  closeTicket?: boolean;
}

/**
 * The outbox for a burst (the schedule engine's due minute): the messages of many tickets
 * of one company stored in one INSERT and their tickets' previews in one UPDATE, instead of
 * two statements per message; the tickets opened only to carry them are closed by one command
 * (`closeCarrierTickets`) in the same transaction, one ticket event each instead of two. Then the
 * batch is announced from batched reads of its tickets and messages and sent together
 * (`deliverBatch`); the rows are outbox entries, so a crash leaves them to the sweeper. Answers
 * the rows in the order of `items`; an item whose ticket is not the company's gets `undefined`.
 */
export async function queueOutgoingBatch(
  ctx: AppContext,
  companyId: number,
  items: BatchOutgoing[],
  /** Runs in the transaction that stores the rows: what must be written with them or not at all (a campaign's shipping marks); throwing stores nothing. */
  onStored?: (tx: Tx, rows: MessageRow[]) => Promise<void>,
  /** Wait for the sends (a campaign's next batch waits for this one's: sends never pile up past their lease or timeout). */
  options: { awaitSends?: boolean } = {},
): Promise<(MessageRow | undefined)[]> {
  if (items.length === 0) return [];
  const targets = await ctx.db
    .select({ id: tickets.id, whatsappId: tickets.whatsappId, queueId: tickets.queueId, channel: whatsapps.channel })
    .from(tickets)
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .where(and(eq(tickets.companyId, companyId), inArray(tickets.id, [...new Set(items.map((i) => i.ticketId))])));
  const byId = new Map(targets.map((t) => [t.id, t]));
  const nextAttemptAt = new Date(Date.now() + SEND_LEASE_MS);
  const values = items.flatMap((item) => {
    const ticket = byId.get(item.ticketId);
    if (!ticket) return [];
    return [
      {
        companyId,
        ticketId: ticket.id,
        whatsappId: ticket.whatsappId,
        queueId: ticket.queueId,
        wid: ticket.channel ? (ctx.channels.adapterFor(ticket.channel).newMessageId?.() ?? null) : null,
        body: item.body,
        fromMe: true,
        read: true,
        ack: 0,
        mediaType: item.media?.mediaType ?? 'chat',
        mediaUrl: item.media?.fileName ?? null,
        data: item.media ? { mimetype: item.media.mimetype } : null,
        sendStatus: 'pending' as const,
        nextAttemptAt,
      },
    ];
  });
  const rows = await ctx.db.transaction(async (tx) => {
    const stored = values.length ? await tx.insert(messages).values(values).returning() : [];
    await previewAndClose(tx, companyId, stored, items);
    await ctx.events.record(tx, { type: 'message.created', messageIds: stored.map((r) => r.id) });
    await onStored?.(tx, stored);
    return stored;
  });
  // The burst's tickets, messages and LGPD flag in three batched reads (two loads per message before); announced a few at a time, then sent together.
  await inLanes(await presentBatch(ctx, rows), ANNOUNCE_LANES, ({ ticket, message, hidesNumbers }) =>
    ctx.events.publish({ type: 'ticket.updated', ticket, hidesNumbers }, { type: 'message.created', message, ticket, hidesNumbers }),
  );
  const sending = deliverBatch(
    ctx,
    rows.map((r) => r.id),
  );
  if (options.awaitSends) await sending.catch((err: unknown) => ctx.log.warn({ err }, 'burst send failed; the outbox sweeper retries'));
  else ctx.background.run('send', () => sending);
  const byTicket = new Map<number, MessageRow[]>();
  for (const row of rows) byTicket.set(row.ticketId, [...(byTicket.get(row.ticketId) ?? []), row]);
  return items.map((item) => byTicket.get(item.ticketId)?.shift());
}

/** The tickets' previews in one UPDATE; tickets opened only to carry their message are closed by one command (`closeCarrierTickets`). */
async function previewAndClose(tx: Tx, companyId: number, rows: MessageRow[], items: BatchOutgoing[]): Promise<void> {
  // One preview per ticket: the last of its messages here (they share one createdAt).
  const latest = [...new Map(rows.map((r) => [r.ticketId, r])).values()];
  if (latest.length) {
    const list = sql.join(
      latest.map((r) => sql`(${r.ticketId}::int, ${r.body}::text, ${r.createdAt}::timestamptz)`),
      sql`, `,
    );
    await tx.execute(sql`
      UPDATE tickets t SET
        last_message = CASE WHEN t.last_message_at <= v.at THEN v.body ELSE t.last_message END,
        last_message_from_me = CASE WHEN t.last_message_at <= v.at THEN true ELSE t.last_message_from_me END,
        last_message_at = GREATEST(t.last_message_at, v.at)
      FROM (VALUES ${list}) AS v(id, body, at)
      WHERE t.id = v.id`);
  }
  const stored = new Set(rows.map((r) => r.ticketId));
  await closeCarrierTickets(tx, companyId, [...new Set(items.filter((i) => i.closeTicket && stored.has(i.ticketId)).map((i) => i.ticketId))]);
}
