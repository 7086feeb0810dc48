import type { ContactList, ContactListItem, ListEventPayload } from '@balcao/contracts';
import type { AppContext } from '../../http/context.js';

/** `company-{id}-ContactList`: to the company's admins (the screens are theirs). */
export async function announceList(ctx: AppContext, companyId: number, payload: ListEventPayload<ContactList>): Promise<void> {
  await ctx.events.publish({ type: 'campaign.record', companyId, name: 'ContactList', payload });
}

/** `company-{companyId}-ContactListItem`: to the company's admins. */
export async function announceItem(ctx: AppContext, companyId: number, payload: ListEventPayload<ContactListItem>): Promise<void> {
  await ctx.events.publish({ type: 'campaign.record', companyId, name: 'ContactListItem', payload });
}
