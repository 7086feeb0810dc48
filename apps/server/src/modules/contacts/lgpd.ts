import { companyEvent, maskContactNumber, type CompanyEventName } from '@balcao/contracts';
import { and, eq, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { companySettings, users } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { ROOMS, type EventPayload } from '../../realtime/server.js';

/**
 * LGPD "hide number" (spec 2 §6): with the company setting `lgpdHideNumber` enabled,
 * non-admins get contact numbers with the middle digits masked (groups excepted), in
 * every answer and event that carries a contact.
 */

type Maskable = { number: string; name: string; isGroup: boolean };
/** Masks the numbers of whatever contacts a payload holds. */
export type ContactMask = <C extends Maskable>(contact: C) => C;

const asIs: ContactMask = (contact) => contact;
export const isAdminCaller = (by: Pick<AuthUser, 'profile' | 'super'>) => by.profile === 'admin' || by.super;

export async function hidesNumbers(db: DbOrTx, companyId: number): Promise<boolean> {
  const [row] = await db
    .select({ on: companySettings.lgpdHideNumber })
    .from(companySettings)
    .where(eq(companySettings.companyId, companyId));
  return row?.on === 'enabled';
}

/**
 * The mask for one caller's answers: masks for non-admins of a company that hides numbers,
 * else leaves contacts as they are. Usage: `const mask = await contactMaskFor(db, caller(req));
 * tickets.map((t) => ({ ...t, contact: mask(t.contact) }))`.
 */
export async function contactMaskFor(db: DbOrTx, by: AuthUser): Promise<ContactMask> {
  if (isAdminCaller(by) || !(await hidesNumbers(db, by.companyId))) return asIs;
  return maskContactNumber;
}

/**
 * Emits an event that carries contact numbers: when the company hides numbers, the
 * company's admins get `build(asIs)` in their own rooms and every other socket of
 * `rooms` gets `build(mask)`. Admins receive it wherever `rooms` is: they see every
 * ticket and contact, so pass rooms that admins belong to (`everyone`, `company-wide`).
 */
export async function emitWithMaskedNumbers<N extends CompanyEventName>(
  ctx: AppContext,
  companyId: number,
  rooms: string[],
  name: N,
  build: (mask: ContactMask) => EventPayload<N>,
): Promise<void> {
  if (!(await hidesNumbers(ctx.db, companyId))) {
    ctx.realtime.emitToRooms(companyId, rooms, name, build(asIs));
    return;
  }
  const admins = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), or(eq(users.profile, 'admin'), eq(users.super, true))));
  const adminRooms = admins.map((a) => ROOMS.user(a.id));
  ctx.realtime.emitToRooms(companyId, adminRooms, name, build(asIs));
  // Realtime has no "except" helper yet: the namespace is addressed directly for this one split.
  ctx.realtime.io
    .of(`/${companyId}`)
    .to(rooms)
    .except(adminRooms)
    .emit(companyEvent(companyId, name), build(maskContactNumber));
}
