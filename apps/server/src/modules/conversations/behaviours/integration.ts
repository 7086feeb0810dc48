import type { AppContext } from '../../../http/context.js';
import { hasPlanFlag } from '../../../http/plan.js';
import { findQueueIntegration } from '../../queue-integrations/queries.js';
import { relayToIntegration } from '../../queue-integrations/relay.js';
import type { InboundContext } from './inbound.js';

/**
 * Step 4 of the inbound hooks (issue 16): the customer's message goes to an integration when the
 * ticket was handed to one (`useIntegration` + `integrationId`, e.g. by a bot option), or when
 * the connection has one and nobody (no user, no queue) has the ticket yet — unless an integration
 * already handed it over (a queue's own integration takes the ticket in chatbot.ts). Without the plan's
 * `useIntegrations` no integration runs. True when the integration took the message.
 */
export async function runIntegrationStep(ctx: AppContext, c: InboundContext): Promise<boolean> {
  const { ticket, connection } = c;
  if (ticket.integrationStoppedAt || !c.messageId) return false;
  const integrationId = ticket.useIntegration && ticket.integrationId ? ticket.integrationId : !ticket.userId && !ticket.queueId ? connection.integrationId : null;
  if (!integrationId) return false;
  const integration = await findQueueIntegration(ctx.db, ticket.companyId, integrationId);
  if (!integration || !(await hasPlanFlag(ctx.db, ticket.companyId, 'useIntegrations'))) return false;
  await relayToIntegration(ctx, { ticketId: ticket.id, messageId: c.messageId, integrationId, attempt: 1 });
  return true;
}
