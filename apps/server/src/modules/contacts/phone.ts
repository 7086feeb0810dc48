import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/**
 * Phone numbers of imported contacts, checked against the numbering plans of
 * libphonenumber (full metadata: a number must be one a carrier could assign).
 * Companies have no country of their own yet: numbers without a country code are
 * read as Brazilian (55), as the spec's default (docs/contacts.md).
 */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'BR';

const TYPED_NUMBER = /^\+?[\d\s\-().]+$/;

/** The number as stored (country code and digits, e.g. `5511987654321`), or undefined when it cannot be valid. */
export function phoneDigits(typed: string, country: CountryCode = DEFAULT_PHONE_COUNTRY): string | undefined {
  const text = typed.trim();
  if (!TYPED_NUMBER.test(text)) return undefined;
  const digits = text.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 17) return undefined;
  // Without a '+' the number is first read as a national one of the country, then as international digits.
  const readings = text.startsWith('+') ? [`+${digits}`] : [digits, `+${digits}`];
  for (const reading of readings) {
    const parsed = parsePhoneNumberFromString(reading, country);
    if (parsed?.isValid()) return parsed.number.slice(1);
  }
  return undefined;
}
