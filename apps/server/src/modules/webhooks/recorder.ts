import { WEBHOOK_PING, type WebhookEvent } from '@balcao/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { EventHandler } from '../../events/bus.js';
import type { DomainEvent } from '../../events/types.js';
import { webhookDeliveries } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { enqueueDelivery } from './delivery.js';
import { subscribedEvents } from './subscriptions.js';

interface Hook {
  companyId: number;
  event: WebhookEvent;
  /** The `ref` its outbox rows were written with (outbox.ts). */
  ref: Record<string, unknown>;
  data: Record<string, unknown>;
}

/** Which bus events are webhook events, and what their deliveries carry (docs/webhooks.md). */
export function hookOf(event: DomainEvent): Hook | undefined {
  switch (event.type) {
    case 'message.created':
      // Internal notes stay inside the company.
      if (event.message.isPrivate) return undefined;
      return { companyId: event.ticket.companyId, event: 'message.created', ref: { messageId: event.message.id }, data: { message: event.message, ticket: event.ticket } };
    case 'ticket.updated': {
      const before = event.previous?.status;
      if (before === undefined || before === event.ticket.status) return undefined;
      return {
        companyId: event.ticket.companyId,
        event: 'ticket.status_changed',
        ref: { ticketId: event.ticket.id, previousStatus: before, status: event.ticket.status },
        data: { ticket: event.ticket, previousStatus: before },
      };
    }
    case 'contact.saved':
      return event.action === 'create'
        ? { companyId: event.companyId, event: 'contact.created', ref: { contactId: event.contact.id }, data: { contact: event.contact } }
        : undefined;
    case 'campaign.finished':
      return { companyId: event.companyId, event: 'campaign.finished', ref: { campaignId: event.campaign.id }, data: { campaign: event.campaign } };
    default:
      return undefined;
  }
}

/**
 * Bus subscriber, after the commit: the presented event becomes the payload of the outbox rows
 * its transaction wrote (outbox.ts), which are then due at once and queued. A row this misses
 * (a crash before it ran) is sent by the sweep after its grace, presented from its ref.
 */
export function webhookRecorder(ctx: AppContext): EventHandler {
  return async (event) => {
    const hook = hookOf(event);
    if (!hook || !(await subscribedEvents(ctx.db, hook.companyId)).has(hook.event)) return;
    const rows = await ctx.db
      .update(webhookDeliveries)
      .set({ payload: hook.data, nextAttemptAt: sql`now()` })
      .where(
        and(
          eq(webhookDeliveries.companyId, hook.companyId),
          eq(webhookDeliveries.event, hook.event),
          sql`${webhookDeliveries.ref} = ${JSON.stringify(hook.ref)}::jsonb`,
          isNull(webhookDeliveries.payload),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    for (const row of rows) await enqueueDelivery(ctx, row.id);
  };
}

/** A delivery written with its payload, due now (the page's test ping). */
export async function recordPing(ctx: AppContext, companyId: number, endpointId: number, data: Record<string, unknown>): Promise<number> {
  const [row] = await ctx.db.insert(webhookDeliveries).values({ companyId, endpointId, event: WEBHOOK_PING, payload: data }).returning({ id: webhookDeliveries.id });
  await enqueueDelivery(ctx, row!.id);
  return row!.id;
}
