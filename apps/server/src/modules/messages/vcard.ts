/** A contact card as WhatsApp carries it (a vCard 3.0 text); stored as the body of a `contactMessage`. */
export interface ContactCard {
  name: string;
  number: string;
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();

/** The vCard WhatsApp shows as a contact (the `waid` lets it offer "message" / "add"). */
export function buildVcard(card: ContactCard): string {
  const name = oneLine(card.name);
  const digits = card.number.replace(/\D/g, '');
  const [first = '', ...rest] = name.split(' ');
  return ['BEGIN:VCARD', 'VERSION:3.0', `N:${rest.join(' ')};${first};;;`, `FN:${name}`, `TEL;type=CELL;waid=${digits}:+${digits}`, 'END:VCARD'].join('\n');
}

/** Name and number of a stored vCard (ours or a received one); empty strings when absent. */
export function parseVcard(vcard: string): ContactCard {
  const name = /^FN[^:]*:(.*)$/m.exec(vcard)?.[1]?.trim() ?? '';
  const tel = /^(?:item\d+\.)?TEL([^:]*):(.*)$/m.exec(vcard);
  const waid = tel?.[1] ? /waid=(\d+)/.exec(tel[1])?.[1] : undefined;
  return { name, number: waid ?? tel?.[2]?.replace(/[^\d+]/g, '') ?? '' };
}
