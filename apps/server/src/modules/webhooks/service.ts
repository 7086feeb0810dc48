import { type WebhookDelivery, type WebhookDeliveriesPage, type WebhookEndpoint, type createWebhookBody, type updateWebhookBody } from '@balcao/contracts';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { sealSecret } from '../../secrets.js';
import { presentDelivery, presentEndpoint, type EndpointRow } from './presenter.js';
import { recordPing } from './recorder.js';
import { forgetSubscriptions } from './subscriptions.js';

export const DELIVERIES_PAGE_SIZE = 20;

const newSecret = () => `whsec_${randomBytes(24).toString('hex')}`;

async function ownEndpoint(ctx: AppContext, user: AuthUser, id: number): Promise<EndpointRow> {
  const [row] = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.companyId, user.companyId)));
  if (!row) throw new AppError('ERR_NO_WEBHOOK_FOUND', 404);
  return row;
}

export async function listEndpoints(ctx: AppContext, user: AuthUser): Promise<WebhookEndpoint[]> {
  const rows = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.companyId, user.companyId)).orderBy(asc(webhookEndpoints.id));
  return rows.map((r) => presentEndpoint(ctx.secrets, r));
}

export async function createEndpoint(ctx: AppContext, user: AuthUser, body: z.output<typeof createWebhookBody>): Promise<WebhookEndpoint> {
  const [row] = await ctx.db
    .insert(webhookEndpoints)
    .values({ companyId: user.companyId, url: body.url, events: body.events, enabled: body.enabled, secret: sealSecret(ctx.secrets, newSecret()) })
    .returning();
  forgetSubscriptions(ctx.db, user.companyId);
  return presentEndpoint(ctx.secrets, row!);
}

export async function updateEndpoint(ctx: AppContext, user: AuthUser, id: number, body: z.output<typeof updateWebhookBody>): Promise<WebhookEndpoint> {
  await ownEndpoint(ctx, user, id);
  if (Object.keys(body).length === 0) return presentEndpoint(ctx.secrets, await ownEndpoint(ctx, user, id));
  const [row] = await ctx.db.update(webhookEndpoints).set(body).where(eq(webhookEndpoints.id, id)).returning();
  forgetSubscriptions(ctx.db, user.companyId);
  return presentEndpoint(ctx.secrets, row!);
}

/** A new secret: the old one stops signing at once. */
export async function rotateSecret(ctx: AppContext, user: AuthUser, id: number): Promise<WebhookEndpoint> {
  await ownEndpoint(ctx, user, id);
  const [row] = await ctx.db.update(webhookEndpoints).set({ secret: sealSecret(ctx.secrets, newSecret()) }).where(eq(webhookEndpoints.id, id)).returning();
  return presentEndpoint(ctx.secrets, row!);
}

/** Its pending deliveries go with it. */
export async function deleteEndpoint(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  await ownEndpoint(ctx, user, id);
  await ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  forgetSubscriptions(ctx.db, user.companyId);
}

export async function pageDeliveries(ctx: AppContext, user: AuthUser, id: number, pageNumber: number): Promise<WebhookDeliveriesPage> {
  await ownEndpoint(ctx, user, id);
  const [total] = await ctx.db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id));
  const rows = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, id))
    .orderBy(desc(webhookDeliveries.id))
    .limit(DELIVERIES_PAGE_SIZE)
    .offset((pageNumber - 1) * DELIVERIES_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { records: rows.map(presentDelivery), count: n, hasMore: pageNumber * DELIVERIES_PAGE_SIZE < n };
}

/** POST /webhooks/{id}/test: a `webhook.ping` delivery to this endpoint, through the same outbox (even when disabled). */
export async function pingEndpoint(ctx: AppContext, user: AuthUser, id: number): Promise<WebhookDelivery> {
  const endpoint = await ownEndpoint(ctx, user, id);
  const deliveryId = await recordPing(ctx, user.companyId, endpoint.id, { endpoint: { id: endpoint.id, url: endpoint.url } });
  const [row] = await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
  return presentDelivery(row!);
}
