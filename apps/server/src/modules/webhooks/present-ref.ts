import { and, eq } from 'drizzle-orm';
import { campaigns } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { loadContact } from '../contacts/queries.js';
import { loadMessage } from '../messages/queries.js';
import { loadTicket } from '../tickets/queries.js';
import type { DeliveryRow } from './presenter.js';

type Ref = { ticketId?: number; previousStatus?: string; messageId?: number; contactId?: number; campaignId?: number };

/**
 * The payload of a delivery whose event was never presented (a crash between the commit and
 * `webhookRecorder`): the record as it is now, as `hookOf` would have sent it. Undefined when it is gone.
 */
export async function presentRef(ctx: AppContext, row: DeliveryRow): Promise<Record<string, unknown> | undefined> {
  const ref = (row.ref ?? {}) as Ref;
  switch (row.event) {
    case 'message.created': {
      const message = ref.messageId ? await loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, ref.messageId) : undefined;
      const ticket = message && (await loadTicket(ctx.db, message.ticketId));
      return ticket && ticket.companyId === row.companyId ? { message, ticket } : undefined;
    }
    case 'ticket.status_changed': {
      const ticket = ref.ticketId ? await loadTicket(ctx.db, ref.ticketId) : undefined;
      return ticket && ticket.companyId === row.companyId ? { ticket, previousStatus: ref.previousStatus } : undefined;
    }
    case 'contact.created': {
      const contact = ref.contactId ? await loadContact(ctx.db, row.companyId, ref.contactId) : undefined;
      return contact && { contact };
    }
    case 'campaign.finished': {
      const [campaign] = ref.campaignId
        ? await ctx.db
            .select({ id: campaigns.id, name: campaigns.name, status: campaigns.status })
            .from(campaigns)
            .where(and(eq(campaigns.id, ref.campaignId), eq(campaigns.companyId, row.companyId)))
        : [];
      return campaign && { campaign };
    }
    default:
      return undefined;
  }
}
