/** `%term%` for ILIKE with the term's own `%`, `_` and `\` matched literally; undefined for a blank term. */
export function containsPattern(term: string | undefined): string | undefined {
  const trimmed = term?.trim();
  return trimmed ? `%${trimmed.replace(/[\\%_]/g, '\\$&')}%` : undefined;
}
