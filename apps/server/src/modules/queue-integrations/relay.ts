import { and, eq } from 'drizzle-orm';
import { contacts, messages, tickets, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { baseMimetype } from '../../storage/media.js';
import { handOverFromIntegration, logIntegrationFailure } from '../conversations/commands/automation-integ.js';
import { queueOutgoing } from '../conversations/outbound.js';
import type { TicketRow } from '../tickets/presenter.js';
import { mediaTypeOf } from '../messages/uploads.js';
import { DialogflowError, detectIntent } from './dialogflow.js';
import { findQueueIntegration, type QueueIntegrationRow } from './queries.js';
import { storedKeyOf } from './service.js';
import { askTypebot } from './typebot.js';
import { RemoteError, fetchMedia, postJson, type IntegrationReply } from './webhook.js';

/**
 * Relaying a customer's message to the ticket's integration and its answers back through the
 * outbox (docs/integrations.md). A failed attempt is logged on the ticket and retried with
 * backoff (a pg-boss job when the process runs one); after the last, the queue takes over.
 */

export const INTEGRATION_RETRY_JOB = 'integration-relay-retry';

export interface RelayJob {
  ticketId: number;
  messageId: number;
  integrationId: number;
  attempt: number;
}

/** The JSON an n8n flow or a webhook receives for each customer message. */
async function webhookPayload(ctx: AppContext, job: RelayJob) {
  const [row] = await ctx.db
    .select({ ticket: tickets, contact: contacts, message: messages, connection: { id: whatsapps.id, name: whatsapps.name, channel: whatsapps.channel } })
    .from(messages)
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .where(and(eq(messages.id, job.messageId), eq(messages.ticketId, job.ticketId)));
  if (!row) return undefined;
  const { ticket, contact, message, connection } = row;
  return {
    ticket: { id: ticket.id, uuid: ticket.uuid, status: ticket.status, queueId: ticket.queueId, userId: ticket.userId, channel: ticket.channel, companyId: ticket.companyId },
    contact: { id: contact.id, name: contact.name, number: contact.number, email: contact.email },
    message: {
      id: message.id,
      wid: message.wid,
      body: message.body,
      fromMe: message.fromMe,
      mediaType: message.mediaType,
      mediaUrl: message.mediaUrl ? ctx.storage.url(ctx.config.apiUrl, ticket.companyId, message.mediaUrl) : null,
      createdAt: message.createdAt.toISOString(),
    },
    connection,
  };
}

async function askIntegration(ctx: AppContext, integration: QueueIntegrationRow, ticket: TicketRow, job: RelayJob): Promise<{ replies: IntegrationReply[]; end: boolean }> {
  const { timeoutMs, dialogflowApiUrl } = ctx.config.integrations;
  if (integration.type === 'typebot' || integration.type === 'dialogflow') {
    const [message] = await ctx.db.select({ body: messages.body }).from(messages).where(eq(messages.id, job.messageId));
    if (integration.type === 'typebot') return askTypebot(ctx, integration, ticket, message?.body ?? '');
    const result = await detectIntent({
      apiUrl: dialogflowApiUrl,
      timeoutMs,
      jsonContent: storedKeyOf(ctx, integration),
      projectName: integration.projectName ?? '',
      language: integration.language ?? 'pt-BR',
      sessionId: `ticket-${job.ticketId}`,
      text: message?.body ?? '',
    });
    return { replies: result.replies.map((text) => ({ text })), end: result.endConversation };
  }
  if (!integration.urlN8N) throw new RemoteError('no urlN8N');
  const payload = await webhookPayload(ctx, job);
  if (!payload) return { replies: [], end: false };
  return { replies: await postJson(integration.urlN8N, payload, timeoutMs), end: false };
}

/** Media replies are fetched first: a broken one fails the attempt before anything went out. */
async function sendReplies(ctx: AppContext, companyId: number, ticketId: number, replies: IntegrationReply[], delayMs: number): Promise<void> {
  const { timeoutMs } = ctx.config.integrations;
  const ready = [];
  for (const reply of replies) {
    if (!reply.mediaUrl) {
      ready.push({ body: reply.text ?? '' });
      continue;
    }
    const file = await fetchMedia(reply.mediaUrl, timeoutMs, ctx.config.mediaLimitBytes);
    const upload = { data: file.data, mimetype: baseMimetype(file.mimetype), originalName: file.name };
    const mediaType = mediaTypeOf(upload);
    const saved = await ctx.storage.save(companyId, upload.data, upload.mimetype, upload.originalName);
    ready.push({ body: reply.text ?? '', media: { fileName: saved.fileName, mimetype: saved.mimetype, mediaType } });
  }
  for (const [i, out] of ready.entries()) {
    if (i > 0 && delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    await queueOutgoing(ctx, { companyId, ticketId, ...out });
  }
}

const isRemoteFailure = (err: unknown) => err instanceof RemoteError || err instanceof DialogflowError || (err as { code?: unknown }).code === 'ERR_INVALID_MEDIA_TYPE';

/** One attempt; a remote failure is logged and retried, or after the last attempt hands the ticket to its queue. */
export async function relayToIntegration(ctx: AppContext, job: RelayJob): Promise<void> {
  const [ticket] = await ctx.db.select().from(tickets).where(eq(tickets.id, job.ticketId));
  if (!ticket || ticket.status === 'closed' || ticket.integrationStoppedAt) return;
  const integration = await findQueueIntegration(ctx.db, ticket.companyId, job.integrationId);
  if (!integration) return;
  try {
    const { replies, end } = await askIntegration(ctx, integration, ticket, job);
    // Typebot spaces its messages by typebotDelayMessage.
    await sendReplies(ctx, ticket.companyId, ticket.id, replies, integration.type === 'typebot' ? integration.typebotDelayMessage : 0);
    if (end) await handOverFromIntegration(ctx, ticket);
  } catch (err) {
    if (!isRemoteFailure(err)) throw err;
    ctx.log.warn({ err, ticketId: ticket.id, integrationId: integration.id, attempt: job.attempt }, 'integration relay failed');
    await logIntegrationFailure(ctx, ticket);
    if (job.attempt >= ctx.config.integrations.maxAttempts) return handOverFromIntegration(ctx, ticket);
    await scheduleRetry(ctx, { ...job, attempt: job.attempt + 1 });
  }
}

/** After `retryBaseMs`, doubling per attempt: a pg-boss job when this process runs the queue, else a timer in the background tasks. */
async function scheduleRetry(ctx: AppContext, job: RelayJob): Promise<void> {
  const delayMs = ctx.config.integrations.retryBaseMs * 2 ** (job.attempt - 2);
  if (ctx.boss) {
    await ctx.boss.send(INTEGRATION_RETRY_JOB, job, { startAfter: Math.max(1, Math.round(delayMs / 1000)), retryLimit: 0 });
    return;
  }
  ctx.background.run('integration relay retry', async () => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await relayToIntegration(ctx, job);
  });
}
