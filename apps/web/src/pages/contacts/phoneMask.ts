/**
 * A stored number in the Brazilian mask (spec 2 §9): `5511987654321` → `+55 (11) 98765-4321`,
 * landlines `+55 (11) 3456-7890`. Other countries get a `+` before their digits; a number
 * the server masked for LGPD (with `*`), a group id or a page-scoped id are shown as they are.
 */
export function brazilianMask(number: string, channel: string = 'whatsapp'): string {
  if (channel !== 'whatsapp' || !/^\d+$/.test(number)) return number;
  const br = /^55(\d{2})(\d{4,5})(\d{4})$/.exec(number);
  if (br) return `+55 (${br[1]}) ${br[2]}-${br[3]}`;
  return number.length <= 15 ? `+${number}` : number;
}
