import type { CampaignVariable } from '@balcao/contracts';

/** The filled variants among `texts`, one picked at random (undefined when none is filled). */
export function pickVariant(texts: (string | null)[], random = Math.random): string | undefined {
  const filled = texts.filter((t): t is string => !!t?.trim());
  return filled[Math.floor(random() * filled.length)];
}

/** {nome}, {numero}, {email} of the contact, then the settings' custom {variables}; unknown names stay as typed. */
export function fillCampaignText(text: string, person: { name: string; number: string; email: string }, custom: CampaignVariable[]): string {
  const values = new Map<string, string>([
    ['nome', person.name],
    ['numero', person.number],
    ['email', person.email],
  ]);
  for (const v of custom) if (!values.has(v.key)) values.set(v.key, v.value);
  return text.replace(/\{([a-zA-Z0-9_]+)\}/g, (whole, name: string) => values.get(name) ?? whole);
}
