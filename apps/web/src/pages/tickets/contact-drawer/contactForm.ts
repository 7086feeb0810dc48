import { z } from 'zod';
import {
  CONTACT_NAME_MAX_INBOX,
  CONTACT_NAME_MIN,
  MSG,
  createContactBody,
  requiredText,
  type Contact,
  type UpdateContactBody,
} from '@balcao/contracts';

export interface ExtraInfoRow {
  name: string;
  value: string;
}

/** A row may be left blank (it is dropped); a value needs a field name. */
const extraInfoRow = z
  .object({ name: z.string().trim().max(100, MSG.tooLong), value: z.string().trim().max(5000, MSG.tooLong) })
  .superRefine((row, ctx) => {
    if (!row.name && row.value) ctx.addIssue({ code: 'custom', path: ['name'], message: MSG.required });
  });

const numberField = createContactBody.shape.number;

/**
 * The inbox's contact dialog (spec 2 §5): name 2–50, number 8–50, e-mail
 * valid or empty. The number is checked (and sent) only when changed: a
 * stored id of another shape (e.g. a page-scoped id) must not block editing
 * the name. A viewer who sees the number masked cannot change it at all.
 */
export function contactFormSchema(original: Pick<Contact, 'number'>) {
  return z.object({
    name: requiredText(CONTACT_NAME_MIN, CONTACT_NAME_MAX_INBOX),
    number: z.string().superRefine((value, ctx) => {
      if (value.trim() === original.number) return;
      const checked = numberField.safeParse(value);
      for (const issue of checked.error?.issues ?? []) ctx.addIssue({ code: 'custom', message: issue.message });
    }),
    email: createContactBody.shape.email,
    disableBot: z.boolean(),
    extraInfo: z.array(extraInfoRow),
  });
}
export type ContactFormIn = z.input<ReturnType<typeof contactFormSchema>>;
export type ContactFormOut = z.output<ReturnType<typeof contactFormSchema>>;

export function contactFormValues(contact: Contact): ContactFormIn {
  return {
    name: contact.name,
    number: contact.number,
    email: contact.email ?? '',
    disableBot: contact.disableBot,
    extraInfo: contact.extraInfo.map(({ name, value }) => ({ name, value })),
  };
}

export const emptyContactForm: ContactFormIn = { name: '', number: '', email: '', disableBot: false, extraInfo: [] };

/** The rows as the API takes them: trimmed, blank rows dropped, in the order shown. */
export function serializeExtraInfo(rows: readonly ExtraInfoRow[]): ExtraInfoRow[] {
  return rows.map((r) => ({ name: r.name.trim(), value: r.value.trim() })).filter((r) => r.name !== '');
}

export function sameExtraInfo(a: readonly ExtraInfoRow[], b: readonly ExtraInfoRow[]): boolean {
  return a.length === b.length && a.every((row, i) => row.name === b[i]?.name && row.value === b[i]?.value);
}

/**
 * `PUT /contacts/{id}`. The extra-info list replaces the stored one, so it is
 * sent only when the rows changed: a rename then cannot undo what someone
 * else (e.g. the kanban value) wrote meanwhile. The number likewise, so a
 * masked one is never sent back.
 */
export function contactUpdateBody(values: ContactFormOut, original: Contact): UpdateContactBody {
  const extraInfo = serializeExtraInfo(values.extraInfo);
  const body: UpdateContactBody = { name: values.name, email: values.email, disableBot: values.disableBot };
  const number = values.number.trim();
  if (number !== original.number) body.number = number;
  if (!sameExtraInfo(extraInfo, serializeExtraInfo(original.extraInfo))) body.extraInfo = extraInfo;
  return body;
}
