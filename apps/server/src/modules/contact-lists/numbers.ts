import { phoneDigits } from '../contacts/phone.js';

/**
 * A list item's number as stored: the phone number as the contacts import normalises it
 * (country code and digits); failing that, bare digits are kept as typed, since a list
 * may also hold Facebook/Instagram page-scoped ids for campaigns on those connections.
 */
export function itemNumber(typed: string): string | undefined {
  const phone = phoneDigits(typed);
  if (phone) return phone;
  const text = typed.trim();
  return /^\d{8,50}$/.test(text) ? text : undefined;
}
