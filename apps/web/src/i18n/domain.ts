import type { Language } from '@balcao/contracts';

/** Leaves are strings; pt-BR gives the shape every other language must match. */
type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };

/**
 * The texts of one screen's domain in every language, kept beside its pages
 * (`pages/<domain>/texts.ts`) and mounted under the domain's key by
 * `i18n/domains.ts`, so `t('<domain>.title')` works in every language.
 */
export type DomainMessages<T> = { 'pt-BR': T } & Record<Exclude<Language, 'pt-BR'>, Shape<T>>;

export function defineMessages<T>(messages: DomainMessages<T>): DomainMessages<T> {
  return messages;
}

/** A base locale with each domain's texts of `lang` mounted under the domain's key. */
export function withDomains(base: object, lang: Language, domains: Record<string, DomainMessages<object>>): Record<string, unknown> {
  return { ...base, ...Object.fromEntries(Object.entries(domains).map(([key, messages]) => [key, messages[lang]])) };
}
