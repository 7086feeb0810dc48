import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { inboundEvents, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import type { Connection } from '../adapter.js';
import { processInbound } from '../inbound.js';
import { metaWebhookSchema, parseMetaWebhook, type MetaEvent, type MetaWebhook } from './webhook.js';

/** How long one worker may hold an event before the sweeper takes it over. */
const CLAIM_MS = 60_000;
/** Events still unprocessed after this many tries stay in the table for an operator to look at. */
const MAX_ATTEMPTS = 10;

/**
 * The synchronous half of `POST /webhook`, after the signature check: the body must
 * name at least one connected Page / IG account (else 404, nothing stored); the raw
 * event is then stored, so the 200 that follows never acknowledges something we could lose.
 */
export async function acceptWebhook(ctx: AppContext, body: MetaWebhook): Promise<number> {
  const ids = [...new Set(body.entry.map((e) => e.id))];
  const column = body.object === 'instagram' ? whatsapps.instagramAccountId : whatsapps.facebookPageId;
  const channel = body.object === 'instagram' ? 'instagram' : 'facebook';
  const known = await ctx.db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.channel, channel), inArray(column, ids)))
    .limit(1);
  if (known.length === 0) throw new AppError('ERR_NO_WAPP_FOUND', 404);
  const [row] = await ctx.db.insert(inboundEvents).values({ source: 'meta', payload: body }).returning({ id: inboundEvents.id });
  if (!row) throw new AppError('ERR_INTERNAL', 500);
  return row.id;
}

/** Lanes of in-process webhook processing: bounded, so acknowledging new deliveries keeps its share of the pool. */
const LANES = 6;
const lanesByContext = new WeakMap<AppContext, Promise<void>[]>();

/**
 * Queues a just-stored event for processing after the 200. Events of one customer
 * share a lane (by sender id), so they are processed in delivery order.
 */
export function scheduleStoredEvent(ctx: AppContext, id: number, body: MetaWebhook): void {
  let lanes = lanesByContext.get(ctx);
  if (!lanes) {
    lanes = Array.from({ length: LANES }, () => Promise.resolve());
    lanesByContext.set(ctx, lanes);
  }
  const first = body.entry[0]?.messaging?.[0] as { sender?: { id?: unknown } } | undefined;
  const key = String(first?.sender?.id ?? id);
  let hash = 0;
  for (const ch of key) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const lane = hash % LANES;
  lanes[lane] = lanes[lane]!.then(() => processStoredEvent(ctx, id)).catch((err: unknown) => ctx.log.error({ err }, 'webhook processing failed'));
}

/** Processes one stored event if nobody else holds it. */
export async function processStoredEvent(ctx: AppContext, id: number): Promise<void> {
  const [claimed] = await ctx.db
    .update(inboundEvents)
    .set({ attempts: sql`${inboundEvents.attempts} + 1`, claimedUntil: new Date(Date.now() + CLAIM_MS) })
    .where(and(eq(inboundEvents.id, id), isNull(inboundEvents.processedAt), or(isNull(inboundEvents.claimedUntil), lt(inboundEvents.claimedUntil, new Date()))))
    .returning();
  if (claimed) await runEvent(ctx, claimed.id, claimed.payload);
}

/** Events whose first processing never finished (crash, restart): taken over after their claim lapsed. */
export async function sweepInboundEvents(ctx: AppContext, limit = 100): Promise<number> {
  const stale = await ctx.db
    .select({ id: inboundEvents.id })
    .from(inboundEvents)
    .where(
      and(
        isNull(inboundEvents.processedAt),
        lt(inboundEvents.attempts, MAX_ATTEMPTS),
        lt(inboundEvents.receivedAt, new Date(Date.now() - 30_000)),
        or(isNull(inboundEvents.claimedUntil), lt(inboundEvents.claimedUntil, new Date())),
      ),
    )
    .orderBy(inboundEvents.receivedAt)
    .limit(limit);
  for (const { id } of stale) await processStoredEvent(ctx, id);
  return stale.length;
}

async function runEvent(ctx: AppContext, id: number, payload: unknown): Promise<void> {
  try {
    const body = metaWebhookSchema.parse(payload);
    const { events } = parseMetaWebhook(body, ctx.config.meta.appId);
    const connections = new Map<string, Connection | null>();
    // In delivery order: one customer's messages keep their sequence.
    for (const e of events) {
      const connection = await connectionFor(ctx, e, connections);
      if (connection) await processInbound(ctx, connection, withLoaders(ctx, connection, e));
    }
    // The stored messages keep their raw items (messages.data): the envelope is not kept twice.
    await ctx.db.update(inboundEvents).set({ processedAt: new Date(), lastError: null, payload: sql`'{}'::jsonb` }).where(eq(inboundEvents.id, id));
  } catch (err) {
    ctx.log.error({ err, inboundEventId: id }, 'webhook event processing failed; the sweeper retries it');
    await ctx.db
      .update(inboundEvents)
      .set({ lastError: String((err as Error).message ?? err).slice(0, 500), claimedUntil: null })
      .where(eq(inboundEvents.id, id));
  }
}

async function connectionFor(ctx: AppContext, e: MetaEvent, cache: Map<string, Connection | null>): Promise<Connection | null> {
  const key = `${e.channel}:${e.accountId}`;
  if (!cache.has(key)) {
    const column = e.channel === 'instagram' ? whatsapps.instagramAccountId : whatsapps.facebookPageId;
    const [row] = await ctx.db
      .select()
      .from(whatsapps)
      .where(and(eq(whatsapps.channel, e.channel), eq(column, e.accountId)));
    cache.set(key, row ?? null);
  }
  return cache.get(key) ?? null;
}

/** Adds what needs the connection: the attachment download and the first-contact profile lookup. */
function withLoaders(ctx: AppContext, connection: Connection, e: MetaEvent) {
  if (e.event.kind !== 'message') return e.event;
  const meta = ctx.channels.meta;
  const mediaUrl = e.mediaUrl;
  return {
    ...e.event,
    loadMedia: mediaUrl ? () => meta.graph.download(mediaUrl, ctx.storage.limitBytes) : undefined,
    lookupProfile: () => meta.profile(connection, e.customerId),
  };
}
