import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { campaignShipping, campaigns } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { queueOutgoingBatch } from '../outbound-batch.js';
import { preparedPerDb } from '../commands/prepared.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { campaignMessage } from '../../campaigns/engine.js';
import { announceCampaign } from '../../campaigns/queries.js';
import { readCampaignSettings } from '../../campaigns/settings.js';

/** The contact's confirmation requests still unanswered; prepared: read for every customer message. */
const awaitingConfirmation = preparedPerDb((db) =>
  db
    .select({ shipping: campaignShipping, campaign: campaigns })
    .from(campaignShipping)
    .innerJoin(campaigns, eq(campaigns.id, campaignShipping.campaignId))
    .where(
      and(
        eq(campaignShipping.contactId, sql.placeholder('contactId')),
        eq(campaignShipping.companyId, sql.placeholder('companyId')),
        isNotNull(campaignShipping.confirmationRequestedAt),
        isNull(campaignShipping.confirmedAt),
        inArray(campaigns.status, ['EM_ANDAMENTO', 'FINALIZADA']),
      ),
    )
    .prepare('behaviours_awaiting_confirmation'),
);

/**
 * A contact answered a campaign's confirmation request: the campaign message goes now, on
 * the ticket of the answer, exactly once (stored with its `confirmedAt`/`deliveredAt` in one
 * transaction, on the condition that the row is not confirmed yet). A cancelled campaign
 * sends nothing more; a finished one still honours answers to the requests it sent.
 * Answers whether the message was a confirmation (the other inbound behaviours then stay quiet).
 */
export async function sendConfirmedCampaignMessages(ctx: AppContext, ticket: TicketRow): Promise<boolean> {
  const awaiting = await awaitingConfirmation(ctx.db).execute({ contactId: ticket.contactId, companyId: ticket.companyId });
  if (awaiting.length === 0) return false;
  for (const { shipping, campaign } of awaiting) {
    const settings = await readCampaignSettings(ctx.db, campaign.companyId);
    const message = campaignMessage(campaign, settings, shipping, ticket.id, false);
    await queueOutgoingBatch(ctx, ticket.companyId, [message], async (tx, [stored]) => {
      const marked = await tx
        .update(campaignShipping)
        .set({ confirmedAt: sql`now()`, deliveredAt: sql`now()`, messageId: stored?.id ?? null })
        .where(and(eq(campaignShipping.id, shipping.id), isNull(campaignShipping.confirmedAt)))
        .returning({ id: campaignShipping.id });
      // Another message of the contact got there first: this one stores nothing.
      if (marked.length === 0) throw new Error('already confirmed');
    }).catch((err: unknown) => {
      if (!(err instanceof Error && err.message === 'already confirmed')) throw err;
    });
    await announceCampaign(ctx, campaign.companyId, campaign.id);
  }
  return true;
}
