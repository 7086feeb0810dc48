import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { ChannelSendError } from '../../channels/adapter.js';
import { messages, tickets } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { inLanes } from '../../jobs/lanes.js';
import { hidesNumbers } from '../contacts/lgpd.js';
import type { MessageRow } from '../messages/presenter.js';
import { loadMessages } from '../messages/queries.js';
import { loadTickets } from '../tickets/queries.js';
import { channelTargets, markFailedAttempt, markSent, outgoingFor, sentHere, type SendTarget } from './outbound.js';

/*
 * The outbox's batch send (a burst: the schedule engine's due minute, a campaign's batch),
 * beside the single-message path of `outbound.ts`: the batch's rows claimed in one UPDATE,
 * their targets read in one statement, the channel calls made a few at a time, the sent rows
 * recorded in one UPDATE and the batch announced from one read of its messages and one of
 * its tickets — no statement per message on the way (five or six per message before).
 *
 * Exactly once: the claim stamps `batch_claimed_at` and clears `next_attempt_at`, so neither
 * the sweeper nor the retry job touches a row while its batch is in flight, and two workers
 * never claim one row (the claim needs `send_attempts = 0`). A process that dies mid-batch
 * leaves the stamp; `failInterruptedBatches` marks such rows failed once the stamp is old,
 * never sends them again: the channel may already have them (as the schedule engine's claim).
 */

/** Channel calls of one batch in flight at once: a whole burst at once ran calls past their timeout. */
const SEND_LANES = 8;
/** A batch claim this old with its row still pending belongs to a process that died mid-batch. */
const INTERRUPTED_AFTER = '5 minutes';
const INTERRUPTED = 'interrupted while sending (server stopped); not sent again so the contact never gets it twice';
const ANNOUNCE_LANES = 8;

type Verdict = { row: MessageRow; wid: string } | { row: MessageRow; error: unknown };

/**
 * A burst's first sends (`queueOutgoingBatch`): claims the rows this node sends (a WhatsApp
 * row whose session runs on another node is routed to it, as `deliverOrRoute` does), sends
 * them, records and announces the outcomes for the whole batch.
 */
export async function deliverBatch(ctx: AppContext, messageIds: number[]): Promise<void> {
  if (messageIds.length === 0) return;
  const claimed = await ctx.db
    .update(messages)
    .set({ sendAttempts: sql`${messages.sendAttempts} + 1`, nextAttemptAt: null, batchClaimedAt: sql`now()` })
    .where(and(inArray(messages.id, messageIds), eq(messages.sendStatus, 'pending'), eq(messages.sendAttempts, 0), sentHere(ctx)))
    .returning();
  const mine = new Set(claimed.map((row) => row.id));
  for (const id of messageIds) if (!mine.has(id)) await ctx.channels.whatsapp.leases.route(id);
  if (claimed.length === 0) return;
  const targets = await channelTargets(ctx, [...new Set(claimed.map((row) => row.ticketId))]);
  const verdicts = await inLanes(claimed, SEND_LANES, (row) => send(ctx, row, targets.get(row.ticketId)));
  await record(ctx, verdicts);
  await announceUpdated(ctx, claimed);
}

async function send(ctx: AppContext, row: MessageRow, target: SendTarget | undefined): Promise<Verdict> {
  try {
    if (!target) throw new ChannelSendError('the ticket has no connection', true);
    const { wid } = await ctx.channels.adapterFor(target.connection.channel).send(target.connection, await outgoingFor(ctx, row, target.to));
    return { row, wid };
  } catch (error) {
    return { row, error };
  }
}

/**
 * The sent rows in one UPDATE (claim released with it). Failures (rare) go through the
 * outbox's own retry rule one by one, then their claims are released in one UPDATE.
 */
async function record(ctx: AppContext, verdicts: Verdict[]): Promise<void> {
  const sent = verdicts.filter((v): v is { row: MessageRow; wid: string } => 'wid' in v);
  const released: number[] = [];
  if (sent.length) {
    const values = sql.join(
      sent.map((v) => sql`(${v.row.id}::int, ${v.wid}::text)`),
      sql`, `,
    );
    try {
      await ctx.db.execute(sql`
        UPDATE messages m SET wid = v.wid, ack = GREATEST(m.ack, 1), send_status = 'sent', next_attempt_at = NULL,
          last_error = NULL, batch_claimed_at = NULL, updated_at = now()
        FROM (VALUES ${values}) AS v(id, wid)
        WHERE m.id = v.id`);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // The channel's echo of one of these sends was stored first under its id: `markSent` keeps ours, one row at a time.
      for (const v of sent) await markSent(ctx, v.row, v.wid);
      released.push(...sent.map((v) => v.row.id));
    }
  }
  for (const v of verdicts) {
    if ('error' in v) {
      await markFailedAttempt(ctx, v.row, v.error);
      released.push(v.row.id);
    }
  }
  if (released.length) await ctx.db.update(messages).set({ batchClaimedAt: null }).where(inArray(messages.id, released));
}

const isUniqueViolation = (err: unknown) => (err as { cause?: { code?: string } }).cause?.code === '23505' || (err as { code?: string }).code === '23505';

/**
 * Messages and their tickets presented in batched reads (one for the messages, one for the
 * tickets, one LGPD flag per company) instead of reads per message; in the order of `rows`.
 */
export async function presentBatch(ctx: AppContext, rows: Pick<MessageRow, 'id' | 'ticketId' | 'companyId'>[]) {
  const companies = [...new Set(rows.map((r) => r.companyId))];
  const [presentedTickets, presentedMessages, hides] = await Promise.all([
    rows.length ? loadTickets(ctx.db, inArray(tickets.id, [...new Set(rows.map((r) => r.ticketId))])) : [],
    loadMessages(
      ctx.db,
      ctx.storage,
      ctx.config.apiUrl,
      rows.map((r) => r.id),
    ),
    Promise.all(companies.map((id) => hidesNumbers(ctx.db, id))),
  ]);
  const ticketOf = new Map(presentedTickets.map((t) => [t.id, t]));
  const messageOf = new Map(presentedMessages.map((m) => [m.id, m]));
  const hidesOf = new Map(companies.map((id, i) => [id, hides[i]!]));
  return rows.flatMap((row) => {
    const ticket = ticketOf.get(row.ticketId);
    const message = messageOf.get(row.id);
    return ticket && message ? [{ ticket, message, hidesNumbers: hidesOf.get(row.companyId)! }] : [];
  });
}

/** Each row's `message.updated` (its ack, wid or failure), from one batched read. */
async function announceUpdated(ctx: AppContext, rows: Pick<MessageRow, 'id' | 'ticketId' | 'companyId'>[]): Promise<void> {
  await inLanes(await presentBatch(ctx, rows), ANNOUNCE_LANES, (presented) => ctx.events.publish({ type: 'message.updated', ...presented }));
}

/** Rows whose batch died mid-send (the outbox sweep): failed, never sent again; a stale stamp on a settled row is cleared. */
export async function failInterruptedBatches(ctx: AppContext): Promise<number> {
  const stale = and(isNotNull(messages.batchClaimedAt), sql`${messages.batchClaimedAt} < now() - ${INTERRUPTED_AFTER}::interval`);
  const failed = await ctx.db
    .update(messages)
    .set({ sendStatus: 'failed', lastError: INTERRUPTED, nextAttemptAt: null, batchClaimedAt: null })
    .where(and(stale, eq(messages.sendStatus, 'pending')))
    .returning({ id: messages.id, ticketId: messages.ticketId, companyId: messages.companyId });
  await ctx.db.update(messages).set({ batchClaimedAt: null }).where(stale);
  if (failed.length) ctx.log.warn({ messageIds: failed.map((r) => r.id) }, 'batch sends interrupted by a crash marked failed');
  await announceUpdated(ctx, failed);
  return failed.length;
}
