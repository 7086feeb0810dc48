import type { WebhookEvent } from '@balcao/contracts';
import { and, arrayContains, eq } from 'drizzle-orm';
import type { EventHandler } from '../../events/bus.js';
import type { DomainEvent } from '../../events/types.js';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { enqueueDelivery } from './delivery.js';

interface Hook {
  companyId: number;
  event: WebhookEvent;
  data: Record<string, unknown>;
}

/** Which bus events are webhook events, and what their deliveries carry (docs/webhooks.md). */
export function hookOf(event: DomainEvent): Hook | undefined {
  switch (event.type) {
    case 'message.created':
      // Internal notes stay inside the company.
      if (event.message.isPrivate) return undefined;
      return { companyId: event.ticket.companyId, event: 'message.created', data: { message: event.message, ticket: event.ticket } };
    case 'ticket.updated': {
      const before = event.previous?.status;
      if (before === undefined || before === event.ticket.status) return undefined;
      return { companyId: event.ticket.companyId, event: 'ticket.status_changed', data: { ticket: event.ticket, previousStatus: before } };
    }
    case 'contact.saved':
      return event.action === 'create' ? { companyId: event.companyId, event: 'contact.created', data: { contact: event.contact } } : undefined;
    case 'campaign.finished':
      return { companyId: event.companyId, event: 'campaign.finished', data: { campaign: event.campaign } };
    default:
      return undefined;
  }
}

/**
 * Bus subscriber: one outbox row per endpoint subscribed to the event, then its job. The bus
 * hands events over after their transaction committed, so the rows are written right after
 * the commit, not in it (docs/webhooks.md says what that leaves open).
 */
export function webhookRecorder(ctx: AppContext): EventHandler {
  return async (event) => {
    const hook = hookOf(event);
    if (hook) await recordDeliveries(ctx, hook.companyId, hook.event, hook.data);
  };
}

export async function recordDeliveries(ctx: AppContext, companyId: number, event: string, data: Record<string, unknown>, endpointId?: number): Promise<number[]> {
  const endpoints = await ctx.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.companyId, companyId),
        endpointId === undefined ? and(eq(webhookEndpoints.enabled, true), arrayContains(webhookEndpoints.events, [event])) : eq(webhookEndpoints.id, endpointId),
      ),
    );
  if (endpoints.length === 0) return [];
  const rows = await ctx.db
    .insert(webhookDeliveries)
    .values(endpoints.map((e) => ({ companyId, endpointId: e.id, event, payload: data })))
    .returning({ id: webhookDeliveries.id });
  for (const row of rows) await enqueueDelivery(ctx, row.id);
  return rows.map((r) => r.id);
}
