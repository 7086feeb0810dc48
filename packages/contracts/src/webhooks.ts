import { z } from 'zod';

/** The events an outbound webhook may subscribe to (docs/webhooks.md); `webhook.ping` is the page's test send. */
export const WEBHOOK_EVENTS = ['message.created', 'ticket.status_changed', 'contact.created', 'campaign.finished'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_PING = 'webhook.ping';

/** The headers of every delivery: the signature is HMAC-SHA256 of `${timestamp}.${body}` with the endpoint's secret, in hex. */
export const WEBHOOK_HEADERS = {
  signature: 'x-balcao-signature',
  timestamp: 'x-balcao-timestamp',
  event: 'x-balcao-event',
  delivery: 'x-balcao-delivery',
} as const;

export const webhookEndpointSchema = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(z.string()),
  /** Shown to the company's admins: the receiver needs it to check signatures. */
  secret: z.string(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

const urlField = z
  .string()
  .trim()
  .max(2000, 'Too Long!')
  .pipe(z.url({ protocol: /^https?$/, error: 'Invalid URL' }));
const eventsField = z.array(z.enum(WEBHOOK_EVENTS)).min(1, 'Required').transform((events) => [...new Set(events)]);

/** POST /webhooks. */
export const createWebhookBody = z.object({ url: urlField, events: eventsField, enabled: z.boolean().default(true) });
export type CreateWebhookBody = z.input<typeof createWebhookBody>;
/** PUT /webhooks/{id}. */
export const updateWebhookBody = z.object({ url: urlField.optional(), events: eventsField.optional(), enabled: z.boolean().optional() });
export type UpdateWebhookBody = z.input<typeof updateWebhookBody>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const webhookDeliverySchema = z.object({
  id: z.number(),
  endpointId: z.number(),
  event: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** GET /webhooks/{id}/deliveries (pageNumber): newest first. */
export const webhookDeliveriesPageSchema = z.object({ records: z.array(webhookDeliverySchema), count: z.number(), hasMore: z.boolean() });
export type WebhookDeliveriesPage = z.infer<typeof webhookDeliveriesPageSchema>;
