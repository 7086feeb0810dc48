import type { DomainEvent, EventPayload } from '../../events/types.js';
import type { AppContext } from '../../http/context.js';

/**
 * Plans and companies are the super users' business: their list events go to the
 * super users' own rooms only, never to a whole company (company 1's other users included).
 */
export async function emitToSuperUsers<N extends 'plan' | 'company'>(ctx: AppContext, name: N, payload: EventPayload<N>): Promise<void> {
  await ctx.events.publish({ type: 'super.record', name, payload } as Extract<DomainEvent, { type: 'super.record' }>);
}
