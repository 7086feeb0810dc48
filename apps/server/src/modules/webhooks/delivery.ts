import { WEBHOOK_HEADERS } from '@balcao/contracts';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { openSecret } from '../../secrets.js';
import type { DeliveryRow } from './presenter.js';
import { presentRef } from './present-ref.js';
import { signWebhook } from './signature.js';

export const WEBHOOK_DELIVER_JOB = 'webhook-deliver';
export const WEBHOOK_SWEEP_JOB = 'webhook-sweep';
/** How long a claimed delivery is left alone while its request is in flight (a crash frees it after this). */
const SEND_LEASE_MS = 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** What is kept of a failing receiver's answer, for the admin's list. */
const ERROR_MAX = 300;

/** The JSON a receiver gets: the same bytes on every attempt (the delivery id lets it drop repeats). */
export function deliveryBody(row: DeliveryRow): string {
  return JSON.stringify({ id: row.id, event: row.event, createdAt: row.createdAt.toISOString(), data: row.payload });
}

/** Queues the send of a delivery on pg-boss, at `at` (now by default). Without a job queue (tools, most tests) the sweep sends it. */
export async function enqueueDelivery(ctx: AppContext, id: number, at?: Date): Promise<void> {
  if (!ctx.boss) return;
  try {
    await ctx.boss.send(WEBHOOK_DELIVER_JOB, { id }, at ? { startAfter: at } : {});
  } catch (err) {
    // The row stays pending: the minute sweep sends it.
    ctx.log.warn({ err, deliveryId: id }, 'could not queue a webhook delivery');
  }
}

/** The `webhook-deliver` job: claims the delivery when due (a repeated job or a concurrent sweep finds nothing) and sends it. */
export async function deliverWebhook(ctx: AppContext, id: number): Promise<void> {
  const [row] = await claim(ctx, eq(webhookDeliveries.id, id));
  if (row) await attempt(ctx, row);
}

/** The minute sweep: due deliveries whose job was lost (a crash between the commit and the queueing) or whose lease ran out. */
export async function sweepWebhooks(ctx: AppContext, limit = 100): Promise<number> {
  const due = ctx.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'pending'), sql`${webhookDeliveries.nextAttemptAt} <= now()`))
    .orderBy(webhookDeliveries.nextAttemptAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await claim(ctx, inArray(webhookDeliveries.id, due));
  for (const row of rows) await attempt(ctx, row);
  return rows.length;
}

/** Takes the lease of the pending, due deliveries `which` selects, counting the attempt. */
function claim(ctx: AppContext, which: SQL | undefined) {
  return ctx.db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, nextAttemptAt: new Date(Date.now() + SEND_LEASE_MS) })
    .where(
      and(
        which,
        eq(webhookDeliveries.status, 'pending'),
        sql`${webhookDeliveries.nextAttemptAt} <= now()`,
      ),
    )
    .returning();
}

/** A delivery without payload gets it from its ref, kept so every attempt sends the same bytes; false when its record is gone. */
async function fill(ctx: AppContext, row: DeliveryRow): Promise<boolean> {
  if (row.payload !== null) return true;
  const payload = await presentRef(ctx, row);
  if (!payload) {
    await ctx.db.update(webhookDeliveries).set({ status: 'failed', lastError: 'the record no longer exists' }).where(eq(webhookDeliveries.id, row.id));
    return false;
  }
  const [kept] = await ctx.db
    .update(webhookDeliveries)
    .set({ payload: sql`coalesce(${webhookDeliveries.payload}, ${JSON.stringify(payload)}::jsonb)` })
    .where(eq(webhookDeliveries.id, row.id))
    .returning({ payload: webhookDeliveries.payload });
  row.payload = kept?.payload ?? payload;
  return true;
}

async function attempt(ctx: AppContext, row: DeliveryRow): Promise<void> {
  const [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, row.endpointId));
  if (!endpoint || !(await fill(ctx, row))) return;
  const body = deliveryBody(row);
  const timestamp = Math.floor(Date.now() / 1000);
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const res = await fetch(endpoint.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Balcao-Webhooks/1',
        [WEBHOOK_HEADERS.signature]: signWebhook(openSecret(ctx.secrets, endpoint.secret), timestamp, body),
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.event]: row.event,
        [WEBHOOK_HEADERS.delivery]: String(row.id),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    statusCode = res.status;
    if (!res.ok) error = `HTTP ${res.status} ${(await res.text().catch(() => '')).slice(0, ERROR_MAX)}`.trim();
    else await res.body?.cancel();
  } catch (err) {
    error = (err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)).slice(0, ERROR_MAX);
  }
  if (error === null) {
    await ctx.db
      .update(webhookDeliveries)
      .set({ status: 'delivered', deliveredAt: new Date(), lastStatusCode: statusCode, lastError: null })
      .where(eq(webhookDeliveries.id, row.id));
    return;
  }
  const { retryBaseMs, maxAttempts } = ctx.config.webhooks;
  const failed = row.attempts >= maxAttempts;
  const next = new Date(Date.now() + retryBaseMs * 2 ** (row.attempts - 1));
  await ctx.db
    .update(webhookDeliveries)
    .set({ status: failed ? 'failed' : 'pending', lastStatusCode: statusCode, lastError: error, nextAttemptAt: next })
    .where(eq(webhookDeliveries.id, row.id));
  if (!failed) await enqueueDelivery(ctx, row.id, next);
}
