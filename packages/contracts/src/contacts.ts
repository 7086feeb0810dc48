import { z } from 'zod';
import { looseBoolean } from './lenient.js';
import { contactSchema } from './tickets.js';
import { MSG, idParam, pageQuery, requiredText } from './validation.js';
import { channelSchema } from './whatsapp.js';

/** Contacts (spec 2 §3, §5, §7): requests and responses; the Contact shape itself lives in tickets.ts. */

/** `GET /contacts` page size (the full export reads pages of 20, spec 2 §7). */
export const CONTACTS_PAGE_SIZE = 20;
/** `GET /contacts` counts matches exactly up to this many; beyond, `count` is this cap (a lower bound; `hasMore` stays exact). */
export const CONTACT_COUNT_CAP = 1000;
/** Name bounds: the inbox dialog allows 2–50 characters, the contacts page 2–250 (spec 2 §5); the server accepts the wider one. */
export const CONTACT_NAME_MIN = 2;
export const CONTACT_NAME_MAX = 250;
export const CONTACT_NAME_MAX_INBOX = 50;
export const CONTACT_NUMBER_MIN = 8;
export const CONTACT_NUMBER_MAX = 50;

/**
 * LGPD "hide number" (spec 2 §6): the middle digits become `*`, e.g. 5511987654321 → 5511*****4321.
 * Up to 4 characters stay visible on each side, fewer on short numbers, so at least a third is always hidden.
 */
export function maskNumber(number: string): string {
  const keep = Math.min(4, Math.floor(number.length / 3));
  if (keep <= 0) return '*'.repeat(number.length);
  return number.slice(0, keep) + '*'.repeat(number.length - 2 * keep) + number.slice(-keep);
}

/** A contact as a viewer under LGPD sees it: groups keep their id; a name that is only the number is masked too. */
export function maskContactNumber<C extends { number: string; name: string; isGroup: boolean }>(contact: C): C {
  if (contact.isGroup) return contact;
  const number = maskNumber(contact.number);
  return { ...contact, number, name: contact.name === contact.number ? number : contact.name };
}

/** A JSON-encoded list of ids in a query string (`contactTag=[1,2]`); anything else is a 400. */
export const jsonIdList = z.string().transform((raw, ctx) => {
  try {
    return z.array(idParam).parse(JSON.parse(raw));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'expected a JSON list of ids' });
    return z.NEVER;
  }
});

/** Clients send empty parameters for unset filters (`channel=`): the same as absent. */
const emptyAsUnset = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const listContactsQuery = pageQuery.extend({
  /** Tag ids: contacts holding any of them. */
  contactTag: emptyAsUnset(jsonIdList),
  channel: emptyAsUnset(channelSchema),
  isGroup: emptyAsUnset(looseBoolean),
});
export type ListContactsQuery = z.output<typeof listContactsQuery>;

/** `GET /contacts/list` (pickers, e.g. the schedule dialog): every contact of the company, optionally by name. */
export const simpleListContactsQuery = z.object({ name: z.string().max(200).optional(), companyId: z.unknown().optional() });

export const contactListResponse = z.object({ contacts: z.array(contactSchema), count: z.number(), hasMore: z.boolean() });

/** Digits, optionally with the usual phone punctuation (+, spaces, dashes, dots, brackets), 8–50 characters. */
const numberField = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required, abort: true })
  .min(CONTACT_NUMBER_MIN, MSG.tooShort)
  .max(CONTACT_NUMBER_MAX, MSG.tooLong);

/** Valid e-mail or empty. */
const optionalEmail = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.union([z.literal(''), z.email(MSG.invalidEmail).max(120, MSG.tooLong)]));

export const extraInfoInput = z.object({ name: requiredText(1, 100), value: z.string().max(5000, MSG.tooLong).default('') });

/** `POST /contacts`: `companyId` is accepted and ignored (the company comes from the token). */
const contactFields = {
  name: requiredText(CONTACT_NAME_MIN, CONTACT_NAME_MAX),
  number: numberField,
  email: optionalEmail.optional(),
  companyId: z.unknown().optional(),
  disableBot: z.boolean().optional(),
  extraInfo: z.array(extraInfoInput).max(100).optional(),
};
export const createContactBody = z.object({ ...contactFields, email: contactFields.email.default('') });
export type CreateContactBody = z.input<typeof createContactBody>;

/**
 * `PUT /contacts/{id}`: a partial update — a field left out keeps its value (no defaults here);
 * `extraInfo` replaces the whole list (an empty list clears it).
 */
export const updateContactBody = z.object(contactFields).partial();
export type UpdateContactBody = z.input<typeof updateContactBody>;

export const blockContactBody = z.object({ active: looseBoolean });

/** `GET /contacts/profile/{number}`. */
export const contactProfileResponse = z.object({
  contactId: z.number(),
  name: z.string(),
  urlPicture: z.string().nullable(),
  profilePicUrl: z.string().nullable(),
});
export type ContactProfile = z.infer<typeof contactProfileResponse>;

/** Phone punctuation the forms may send; the stored number is digits only. */
const PHONE_PUNCTUATION = /[\s\-().+]/g;
/** The stored form of a typed number: digits only, or undefined when anything but digits and punctuation was typed. */
export function normalizeNumber(typed: string): string | undefined {
  const digits = typed.replace(PHONE_PUNCTUATION, '');
  return /^\d+$/.test(digits) ? digits : undefined;
}
