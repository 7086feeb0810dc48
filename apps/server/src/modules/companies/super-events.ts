import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import type { EventPayload } from '../../realtime/server.js';

/**
 * Plans and companies are the super users' business: their list events go to the
 * super users' own rooms only, never to a whole company (company 1's other users included).
 */
export async function emitToSuperUsers<N extends 'plan' | 'company'>(ctx: AppContext, name: N, payload: EventPayload<N>): Promise<void> {
  const supers = await ctx.db.select({ id: users.id, companyId: users.companyId }).from(users).where(eq(users.super, true));
  for (const s of supers) ctx.realtime.emitToUser(s.companyId, s.id, name, payload);
}
