import { maskContactNumber } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { companySettings } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';

/**
 * LGPD "hide number" (spec 2 §6): with the company setting `lgpdHideNumber` enabled,
 * non-admins get contact numbers with the middle digits masked (groups excepted), in
 * every answer and event that carries a contact.
 */

type Maskable = { number: string; name: string; isGroup: boolean };
/** Masks the numbers of whatever contacts a payload holds. */
export type ContactMask = <C extends Maskable>(contact: C) => C;

export const asIs: ContactMask = (contact) => contact;
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
  return isAdminCaller(by) ? asIs : maskFor(false, await hidesNumbers(db, by.companyId));
}

/** The mask for a caller whose role and company setting are known already (read with the inbox viewer). */
export const maskFor = (isAdmin: boolean, companyHidesNumbers: boolean): ContactMask => (isAdmin || !companyHidesNumbers ? asIs : maskContactNumber);
