import type { DomainMessages } from './domain';

/**
 * Domain texts mounted beside the base locale: one line per screen domain,
 * `key: messages` from `pages/<domain>/messages.ts`.
 */
export const DOMAIN_MESSAGES: Record<string, DomainMessages<object>> = {};
