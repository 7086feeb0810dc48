import { maskContactNumber, type SessionUser } from '@balcao/contracts';

/** Up to two initials for the avatar fallback: first letters of the first and last words. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (first === undefined) return '?';
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  return ((Array.from(first)[0] ?? '') + (last ? (Array.from(last)[0] ?? '') : '')).toUpperCase();
}

type Viewer = Pick<SessionUser, 'profile' | 'super'> & { company: { companieSettings: Record<string, string> } };

/**
 * Spec 2 §6 (LGPD): with `lgpdHideNumber` on, non-admins see contact numbers
 * partly masked (super users count as admins, as on the server); group ids
 * are not phone numbers and stay as they are. The server masks its answers
 * too; masking an already masked number changes nothing.
 */
export function shouldMaskNumber(viewer: Viewer, contact: { isGroup: boolean }): boolean {
  if (viewer.profile === 'admin' || viewer.super || contact.isGroup) return false;
  return viewer.company.companieSettings.lgpdHideNumber === 'enabled';
}

/** The contact's name and number as this viewer may see them (a name that is only the number is masked too). */
export function visibleContact<C extends { number: string; name: string; isGroup: boolean }>(viewer: Viewer, contact: C): C {
  return shouldMaskNumber(viewer, contact) ? maskContactNumber(contact) : contact;
}
