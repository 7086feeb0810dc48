import { and, asc, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { channel } from 'node:diagnostics_channel';
import pg from 'pg';
import type { MetaWebhook } from '../../channels/meta/webhook.js';
import type { DecodedInbound, InboundSource } from '../../channels/sink.js';
import { asForeground } from '../../db/priority-pool.js';
import { createDb, type Db } from '../../db/client.js';
import { inboundEvents } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { processInbound, storeMessages, type Announce } from './inbound.js';

/** How long a worker holds an event before the sweeper may take it over. */
const CLAIM_MS = 60_000;
/** Events still unprocessed after this many tries stay in the table for an operator to look at. */
const MAX_ATTEMPTS = 10;
/** Lanes of in-process processing: bounded, so acknowledging new deliveries keeps its share of the pool. */
const LANES = 8;
/** Processed events are marked in one statement per this window, not one per event. */
const MARK_EVERY_MS = 25;
/** Socket events a lane may owe before its next transaction waits for them. */
const MAX_UNANNOUNCED = 16;
/** Deliveries stored by one statement at most. */
const MAX_RECEIVED_PER_INSERT = 500;
/** Raw events a lane takes at once: their customer messages share one transaction. */
const MAX_BATCH = 10;
/** Connections of the acknowledgement's own pool: the receive insert and the processed marks, side by side. */
const ACK_CONNECTIONS = 2;
/**
 * Receive inserts in flight at once: the deliveries that arrive meanwhile wait for the next, so
 * a busy second costs few statements (acks only, 50 posts in flight: 0.75 ms CPU per request with
 * two in flight, 0.46 ms with one).
 */
const INSERTS_IN_FLIGHT = 1;
/**
 * A burst: at least this many deliveries received within BURST_WINDOW_MS (200/s, twice the steady
 * rate of the aims). While one lasts, the stored events are held back from the lanes, so the
 * acknowledgements (what Meta waits for) keep the CPU; processing takes them when it ends.
 */
const BURST_DELIVERIES = 20;
const BURST_WINDOW_MS = 100;
/** Held back at most this long: under a burst that does not end, processing still keeps up. */
const MAX_HOLD_MS = 1000;

/** A raw event's way through this process, in order: received by the route, stored (acknowledged), taken by its lane, committed, announced. */
export type IngestPhase = 'received' | 'stored' | 'lane' | 'committed' | 'announced';
export interface IngestTrace {
  phase: IngestPhase;
  /** performance.timeOrigin + performance.now(): comparable across processes. */
  at: number;
  payloads: unknown[];
}
/** Per-phase timestamps for bench/ingest.ts; nothing is built while no one subscribes. */
export const ingestTrace = channel('balcao:ingest');
function trace(phase: IngestPhase, events: readonly { payload: unknown }[]): void {
  if (ingestTrace.hasSubscribers) ingestTrace.publish({ phase, at: performance.timeOrigin + performance.now(), payloads: events.map((e) => e.payload) } satisfies IngestTrace);
}

/** Deliveries of served accounts: sources and payloads as two arrays, ids drawn in their order (1-based n). */
const RECEIVE_KNOWN = `
  WITH received AS (
    SELECT n, source, payload, nextval(pg_get_serial_sequence('inbound_events', 'id'))::int AS id
    FROM (SELECT * FROM ROWS FROM (unnest($1::text[]), jsonb_array_elements($2::jsonb)) WITH ORDINALITY AS r (source, payload, n) ORDER BY n) AS r
  ), stored AS (
    INSERT INTO inbound_events (id, source, payload, attempts, claimed_until)
    SELECT id, source, payload, 1, $3::timestamptz FROM received
  )
  SELECT n, id FROM received`;

interface Stored {
  id: number;
  source: InboundSource;
  payload: unknown;
}

interface Received {
  source: InboundSource;
  payload: unknown;
  /** True when a connection of ours is known to serve the delivery's account, else the SQL that tells. */
  served: true | SQL;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The raw inbound events of this process (ARCHITECTURE §7, docs/conversations.md):
 * stored before anything else, then processed in lanes keyed by contact, so one
 * customer's events keep their order; replayed at boot and by the minute sweep.
 */
class InboundQueue {
  private readonly lanes: Promise<void>[] = Array.from({ length: LANES }, () => Promise.resolve());
  /** Each lane's events not yet taken, in order, and whether the lane is taking them. */
  private readonly waiting: Stored[][] = Array.from({ length: LANES }, () => []);
  private readonly running: boolean[] = Array.from({ length: LANES }, () => false);
  /** Each lane's socket events, in the lane's order, behind its transactions. */
  private readonly announced: Promise<void>[] = Array.from({ length: LANES }, () => Promise.resolve());
  private readonly unannounced: number[] = Array.from({ length: LANES }, () => 0);
  private processed: number[] = [];
  private markTimer?: NodeJS.Timeout;
  private marking: Promise<void> = Promise.resolve();
  /** Deliveries waiting for the next insert. */
  private readonly received: Received[] = [];
  /** Deliveries for a Page or Instagram account we do not serve (acknowledged, not stored). */
  unknownAccounts = 0;
  private ackPool?: pg.Pool;
  private ackDb?: Db;
  private closed = false;
  /** Receive inserts in flight (at most INSERTS_IN_FLIGHT), and whether the next is already due. */
  private storing = 0;
  private storeDue = false;
  /** Stored events held back from the lanes during a burst, in id order, and since when. */
  private held: Stored[] = [];
  private heldSince = 0;
  /** Deliveries received in the current window (since windowStart) and in the previous one. */
  private windowStart = 0;
  private inWindow = 0;
  private inLastWindow = 0;
  private holdTimer?: NodeJS.Timeout;

  constructor(private readonly ctx: AppContext) {}

  /**
   * The receive inserts and the processed marks run on connections of their own: an
   * acknowledgement never waits for one behind the lanes' transactions, the announcements'
   * reads or a request's statements (measured: 60 ms mean pool wait when they shared one).
   */
  private acks(): { pool: pg.Pool; db: Db } {
    if (this.closed) return { pool: this.ctx.db.$client, db: this.ctx.db };
    if (!this.ackPool || !this.ackDb) {
      this.ackPool = new pg.Pool({ ...this.ctx.db.$client.options, max: ACK_CONNECTIONS });
      // An idle client losing its connection must not crash the process; the pool replaces it.
      this.ackPool.on('error', () => undefined);
      this.ackDb = createDb(this.ackPool);
    }
    return { pool: this.ackPool, db: this.ackDb };
  }

  /** At app close, once no request is in flight: the last marks, then the acknowledgement's connections. */
  async close(): Promise<void> {
    // Held events stay claimed rows: the next boot replays them (the pool is about to end).
    clearTimeout(this.holdTimer);
    await this.markNow();
    this.closed = true;
    await this.ackPool?.end();
  }

  /**
   * Stored (and claimed by this process) only when a connection of ours serves it. Group
   * commit: the deliveries that arrive while the inserts in flight run share the next
   * statement, so one commit, and a burst costs fewer statements the busier it is.
   */
  receive(source: InboundSource, payload: unknown): Promise<void> {
    // A Meta payload comes from the webhook route, which validated it against metaWebhookSchema.
    const served = source === 'meta' ? this.ctx.channels.meta.servesAccountOf(payload as MetaWebhook) : true;
    trace('received', [{ payload }]);
    this.count();
    return new Promise((resolve, reject) => {
      this.received.push({ source, payload, served, resolve, reject });
      this.storeSoon();
    });
  }

  /** The next insert, after this turn's deliveries joined it, unless one is in flight (its end calls this again). */
  private storeSoon(): void {
    if (this.storeDue || this.storing >= INSERTS_IN_FLIGHT || this.received.length === 0) return;
    this.storeDue = true;
    // The lanes it sets going keep the foreground's share of the pool, whoever received it.
    asForeground(() =>
      setImmediate(() => {
        this.storeDue = false;
        void this.storeReceived();
      }),
    );
  }

  private async storeReceived(): Promise<void> {
    const batch = this.received.splice(0, MAX_RECEIVED_PER_INSERT);
    if (batch.length === 0) return;
    this.storing++;
    this.storeSoon();
    try {
      const ids = await this.insertReceived(batch);
      trace('stored', batch);
      if (this.held.length === 0) this.heldSince = performance.now();
      batch.forEach((r, n) => {
        const id = ids.get(n);
        if (id !== undefined) this.held.push({ id, source: r.source, payload: r.payload });
        else {
          // A non-200 would make Meta retry for hours and finally disable the app's subscription.
          this.unknownAccounts += 1;
          this.ctx.log.warn({ unknownAccountDeliveries: this.unknownAccounts }, 'webhook for an account no connection serves: acknowledged, nothing stored');
        }
        r.resolve();
      });
    } catch (err) {
      for (const r of batch) r.reject(err);
    } finally {
      this.storing--;
      this.storeSoon();
      this.release();
    }
  }

  /** Counts a delivery into the burst window. */
  private count(): void {
    this.roll(performance.now());
    this.inWindow += 1;
  }

  private roll(now: number): void {
    if (now - this.windowStart < BURST_WINDOW_MS) return;
    this.inLastWindow = now - this.windowStart < 2 * BURST_WINDOW_MS ? this.inWindow : 0;
    this.windowStart = now;
    this.inWindow = 0;
  }

  /**
   * The held events to their lanes, unless a burst is still being acknowledged (see BURST_DELIVERIES).
   * While they are held, each insert's end asks again, and a timer once the window has moved on
   * (processing holding the thread may be why no delivery is waiting). `force`: settle now.
   */
  private release(force = false): void {
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    if (this.held.length === 0 || this.closed) return;
    const now = performance.now();
    this.roll(now);
    const bursting = Math.max(this.inWindow, this.inLastWindow) >= BURST_DELIVERIES;
    if (!force && bursting && now - this.heldSince < MAX_HOLD_MS) {
      this.holdTimer = setTimeout(() => this.release(), BURST_WINDOW_MS);
      return;
    }
    const events = this.held;
    this.held = [];
    for (const e of events) this.schedule(e);
  }

  /** The ids of the stored deliveries by their place in the batch (the ids are drawn in that order, so one contact's stay in order). */
  private async insertReceived(batch: Received[]): Promise<Map<number, number>> {
    const claimedUntil = new Date(Date.now() + CLAIM_MS).toISOString();
    const { pool, db } = this.acks();
    if (batch.every((r) => r.served === true)) {
      // The common case: one prepared statement of three parameters, whatever the batch's size.
      const { rows } = await pool.query<{ n: string; id: number }>({
        name: 'inbound_receive',
        text: RECEIVE_KNOWN,
        values: [batch.map((r) => r.source), JSON.stringify(batch.map((r) => r.payload)), claimedUntil],
      });
      return new Map(rows.map((r) => [Number(r.n) - 1, r.id]));
    }
    // Bounded by MAX_RECEIVED_PER_INSERT: a statement holds at most 65 535 parameters.
    const values = sql.join(
      batch.map((r, n) => sql`(${n}::int, ${r.source}::text, ${JSON.stringify(r.payload)}::jsonb, ${r.served === true ? sql`TRUE` : r.served})`),
      sql`, `,
    );
    const { rows } = await db.execute<{ n: number; id: number }>(sql`
      WITH received AS (
        SELECT n, source, payload, nextval(pg_get_serial_sequence('inbound_events', 'id'))::int AS id
        FROM (VALUES ${values}) AS r (n, source, payload, served) WHERE served
      ), stored AS (
        INSERT INTO ${inboundEvents} (id, source, payload, attempts, claimed_until)
        SELECT id, source, payload, 1, ${claimedUntil}::timestamptz FROM received
      )
      SELECT n, id FROM received`);
    return new Map(rows.map((r) => [Number(r.n), Number(r.id)]));
  }

  schedule(event: Stored): void {
    const key = this.ctx.channels.orderKey(event.source, event.payload);
    // FNV-1a: keys that differ only in their last digits still spread over the lanes.
    let hash = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
    const lane = hash % LANES;
    this.waiting[lane]!.push(event);
    if (this.running[lane]) return;
    this.running[lane] = true;
    this.lanes[lane] = asForeground(() => this.lanes[lane]!.then(() => this.drainLane(lane)));
  }

  /** Takes the lane's waiting events in order, up to MAX_BATCH at a time, until none is left. */
  private async drainLane(lane: number): Promise<void> {
    try {
      const waiting = this.waiting[lane]!;
      while (waiting.length) {
        await this.runBatch(waiting.splice(0, MAX_BATCH), lane);
        // Acknowledgements (parsing, signing, their insert) go between two batches, not behind the backlog.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.running[lane] = false;
    }
  }

  /**
   * Customer messages only (the common case under load): stored in one transaction, or with known
   * customers in one statement that also marks the events processed (a lone event too: its mark
   * then costs no statement of its own). Anything else, or a batch that fails (nothing of it is
   * stored then), goes one event at a time.
   */
  private async runBatch(batch: Stored[], lane: number): Promise<void> {
    trace('lane', batch);
    await this.backPressure(lane);
    const decoded: DecodedInbound[] = [];
    try {
      for (const e of batch) decoded.push(...(await this.ctx.channels.decode(e.source, e.payload)));
      const messages = decoded.flatMap(({ connection, event }) => (event.kind === 'message' ? [{ connection, m: event }] : []));
      if (messages.length === decoded.length) {
        const marked = await storeMessages(this.ctx, messages, this.announcer(lane, batch), batch.map((e) => e.id));
        if (!marked) for (const e of batch) this.markProcessed(e.id);
        return;
      }
    } catch (err) {
      this.ctx.log.debug({ err }, 'a batch of inbound messages failed; processing them one by one');
    }
    // A lone event is not decoded twice.
    if (batch.length === 1 && decoded.length) return this.run(batch[0]!, lane, decoded);
    for (const event of batch) await this.run(event, lane);
  }

  /** Runs a committed change's socket events on the lane's own chain, in the lane's order. */
  private announcer(lane: number, events: Stored[]): Announce {
    return (emit) => {
      trace('committed', events);
      this.unannounced[lane]! += 1;
      this.announced[lane] = this.announced[lane]!.then(emit)
        .then(() => trace('announced', events))
        .catch((err: unknown) => this.ctx.log.error({ err }, 'socket events of an inbound message failed'))
        .finally(() => (this.unannounced[lane]! -= 1));
    };
  }

  /** Back-pressure: the events may trail the transactions, not run away from them. */
  private async backPressure(lane: number): Promise<void> {
    if (this.unannounced[lane]! >= MAX_UNANNOUNCED) await this.announced[lane];
  }

  async drained(): Promise<void> {
    this.release(true);
    const chains = () => [...this.lanes, ...this.announced];
    for (let before: Promise<void>[] = []; before.length === 0 || chains().some((p, i) => p !== before[i]); ) {
      before = chains();
      await Promise.all(before);
    }
    await this.markNow();
  }

  private async run(event: Stored, lane: number, decodedBefore?: DecodedInbound[]): Promise<void> {
    const announce = this.announcer(lane, [event]);
    await this.backPressure(lane);
    try {
      const decoded = decodedBefore ?? (await this.ctx.channels.decode(event.source, event.payload));
      for (const { connection, event: e } of decoded) await processInbound(this.ctx, connection, e, { announce });
      this.markProcessed(event.id);
    } catch (err) {
      this.ctx.log.error({ err, inboundEventId: event.id }, 'inbound event processing failed; the sweeper retries it');
      await this.ctx.db
        .update(inboundEvents)
        .set({ lastError: String((err as Error).message ?? err).slice(0, 500), claimedUntil: null })
        .where(sql`${inboundEvents.id} = ${event.id}`)
        .catch(() => undefined);
    }
  }

  private markProcessed(id: number): void {
    this.processed.push(id);
    this.markTimer ??= setTimeout(() => void this.markNow(), MARK_EVERY_MS);
  }

  /** Replay is idempotent, so an event processed but not yet marked (crash in this window) only costs a no-op replay. */
  private async markNow(): Promise<void> {
    clearTimeout(this.markTimer);
    this.markTimer = undefined;
    const ids = this.processed;
    this.processed = [];
    if (ids.length) {
      // The stored messages keep their raw items (messages.data): the envelope is not kept twice.
      this.marking = this.marking.then(() =>
        this.acks()
          .db.update(inboundEvents)
          .set({ processedAt: new Date(), lastError: null, payload: sql`'{}'::jsonb` })
          .where(inArray(inboundEvents.id, ids))
          .then(
            () => undefined,
            (err: unknown) => this.ctx.log.warn({ err }, 'marking inbound events processed failed; they will be replayed'),
          ),
      );
    }
    await this.marking;
  }
}

const queues = new WeakMap<AppContext, InboundQueue>();
export function inboundQueue(ctx: AppContext): InboundQueue {
  let queue = queues.get(ctx);
  if (!queue) {
    queue = new InboundQueue(ctx);
    queues.set(ctx, queue);
  }
  return queue;
}

/** Oldest first: events of one contact reach their lane in the order they were received. */
function scheduleInOrder(ctx: AppContext, claimed: { id: number; source: string; payload: unknown }[]): void {
  const queue = inboundQueue(ctx);
  for (const e of claimed.sort((a, b) => a.id - b.id)) queue.schedule({ ...e, source: e.source as InboundSource });
}

/**
 * At boot: every event a previous run acknowledged but did not finish is queued at
 * once, oldest first (so in order per contact), before new traffic is taken.
 */
export async function resumeInboundEvents(ctx: AppContext): Promise<number> {
  const claimed = await ctx.db
    .update(inboundEvents)
    .set({ attempts: sql`${inboundEvents.attempts} + 1`, claimedUntil: new Date(Date.now() + CLAIM_MS) })
    .where(and(isNull(inboundEvents.processedAt), lt(inboundEvents.attempts, MAX_ATTEMPTS)))
    .returning({ id: inboundEvents.id, source: inboundEvents.source, payload: inboundEvents.payload });
  scheduleInOrder(ctx, claimed);
  if (claimed.length) ctx.log.info(`replaying ${claimed.length} unprocessed inbound event(s)`);
  return claimed.length;
}

/** The minute sweep: events whose claim lapsed (a lost lane, a failed attempt) are taken over. */
export async function sweepInboundEvents(ctx: AppContext, limit = 100): Promise<number> {
  const stale = ctx.db
    .select({ id: inboundEvents.id })
    .from(inboundEvents)
    .where(
      and(
        isNull(inboundEvents.processedAt),
        lt(inboundEvents.attempts, MAX_ATTEMPTS),
        or(isNull(inboundEvents.claimedUntil), lt(inboundEvents.claimedUntil, new Date())),
      ),
    )
    .orderBy(asc(inboundEvents.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await ctx.db
    .update(inboundEvents)
    .set({ attempts: sql`${inboundEvents.attempts} + 1`, claimedUntil: new Date(Date.now() + CLAIM_MS) })
    .where(inArray(inboundEvents.id, stale))
    .returning({ id: inboundEvents.id, source: inboundEvents.source, payload: inboundEvents.payload });
  scheduleInOrder(ctx, claimed);
  await inboundQueue(ctx).drained();
  return claimed.length;
}
