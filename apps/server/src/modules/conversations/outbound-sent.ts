import { getTableColumns, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { messages } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import type { MessageRow } from '../messages/presenter.js';
import { rowOf, runPrepared, selected } from './commands/prepared.js';

/*
 * The outcome of successful sends, batched: the sends that finish while one outcome statement is in
 * flight are recorded together by the next one (ONE UPDATE for all of them), so concurrent sends (the
 * messages API at 200 a second) hold one pooled connection, one round trip and one commit's flush for many
 * rows instead of one each. A lone send is recorded at once: nothing waits for a timer.
 *
 * The outbox discipline is unchanged: each outcome still commits before its send is announced, and an
 * outcome not yet committed is lost only with the process; the row is then as it is when a single
 * `markSent` is lost (claimed, pending, its lease running), which is what the sweeper resends after the
 * lease (WhatsApp under the same message id: the customer sees it once). Batching adds to that window at
 * most the duration of the statement ahead of it (docs/messages-api.md).
 */

/** At most this many outcomes per statement (its parameters are two arrays, the batch bounded anyway). */
const MAX_BATCH = 200;

const messageColumns = Object.entries(getTableColumns(messages));

/** `= ANY` of the ids: its prepared (generic) plan is an index scan of the primary key whatever the batch's size (a join to `unnest` is planned for 100 rows). */
const compiled = new PgDialect().sqlToQuery(sql`
  UPDATE messages m SET wid = (${sql.placeholder('wids')}::text[])[array_position(${sql.placeholder('ids')}::int[], m.id)],
    ack = GREATEST(m.ack, 1), send_status = 'sent', next_attempt_at = NULL, last_error = NULL, updated_at = now()
  WHERE m.id = ANY(${sql.placeholder('ids')}::int[])
  RETURNING ${sql.raw(selected('m', messageColumns))}`);

interface Waiting {
  row: MessageRow;
  wid: string;
  settle: (written: Promise<MessageRow | undefined>) => void;
}

const isUniqueViolation = (err: unknown) => (err as { cause?: { code?: string } }).cause?.code === '23505' || (err as { code?: string }).code === '23505';

class SentOutcomes {
  private waiting: Waiting[] = [];
  private flushing = false;

  constructor(
    private readonly ctx: AppContext,
    /** One outcome alone, with the channel's echo rule (`markSent`): a batch that met an echo is recorded one by one. */
    private readonly one: (row: MessageRow, wid: string) => Promise<MessageRow | undefined>,
  ) {}

  record(row: MessageRow, wid: string): Promise<MessageRow | undefined> {
    return new Promise((resolve) => {
      this.waiting.push({ row, wid, settle: (written) => resolve(written) });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      try {
        const rows = await runPrepared(this.ctx, 'outbox_mark_sent_batch', compiled, { ids: batch.map((w) => w.row.id), wids: batch.map((w) => w.wid) });
        const written = new Map(rows.map((values) => rowOf<MessageRow>(messageColumns, values, 0)).map((row) => [row.id, row]));
        for (const w of batch) w.settle(Promise.resolve(written.get(w.row.id)));
      } catch (err) {
        // The channel's echo of one of these sends was stored first under its id: each outcome alone keeps ours.
        for (const w of batch) w.settle(isUniqueViolation(err) ? this.one(w.row, w.wid) : Promise.reject(err));
      }
    }
    this.flushing = false;
  }
}

const perContext = new WeakMap<AppContext, SentOutcomes>();

/** Records a successful send (as `markSent`), batched with the outcomes of the sends finishing meanwhile. */
export function recordSent(ctx: AppContext, row: MessageRow, wid: string, one: (row: MessageRow, wid: string) => Promise<MessageRow | undefined>): Promise<MessageRow | undefined> {
  let outcomes = perContext.get(ctx);
  if (!outcomes) perContext.set(ctx, (outcomes = new SentOutcomes(ctx, one)));
  return outcomes.record(row, wid);
}
