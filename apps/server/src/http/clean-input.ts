import type { FastifyRequest } from 'fastify';

/**
 * C0 control characters other than tab, line feed and carriage return, and DEL. NUL cannot
 * be stored by PostgreSQL at all (text and jsonb refuse it); the others mean nothing in a
 * name, a search or a message and only break what displays them.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A string without control characters, with lone surrogates (not valid UTF-16) replaced by U+FFFD. */
export function cleanString(value: string): string {
  return value.replace(CONTROL, '').replace(LONE_SURROGATE, '\uFFFD');
}

/** The same value with every string in it (keys included) cleaned; other values untouched. */
export function cleanStrings<T>(value: T): T {
  if (typeof value === 'string') return cleanString(value) as T;
  if (Array.isArray(value)) return value.map(cleanStrings) as T;
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [cleanString(k), cleanStrings(v)])) as T;
  }
  return value;
}

/**
 * Anything cleanString changes reaches a JSON text only as an escape (`\b`, `\f`, `\uXXXX`: JSON
 * forbids raw control characters in strings, and UTF-8 decoding never yields a lone surrogate) or
 * as a raw DEL. A false hit (`\\b`) only costs the walk.
 */
const MAY_NEED_CLEANING = /\\[bfu]|\u007F/;

/** CONTROL or LONE_SURROGATE, without the global flag: a test keeps no state between strings. */
const UNCLEAN = new RegExp(`${CONTROL.source}|${LONE_SURROGATE.source}`);

/** Whether cleanStrings would change nothing: the same walk, building nothing. */
function isClean(value: unknown): boolean {
  if (typeof value === 'string') return !UNCLEAN.test(value);
  if (Array.isArray(value)) return value.every(isClean);
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) if (UNCLEAN.test(key) || !isClean(item)) return false;
  }
  return true;
}

/**
 * JSON.parse, then cleanStrings only when something needs it. A body that escapes its non-ASCII
 * characters (`\u00e1`, an emoji's surrogate pair) passes the text test: a walk that builds nothing
 * tells, so only a body with something to clean is rebuilt.
 */
export function parseCleanJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return MAY_NEED_CLEANING.test(text) && !isClean(value) ? cleanStrings(value) : value;
}

/**
 * preValidation hook: every string of the parsed body, query and path parameters is cleaned
 * once, at the edge, before any schema or handler sees it. Bodies kept raw (the Meta webhook,
 * whose signature covers the bytes) are cleaned by their route after parsing.
 */
export async function cleanRequestStrings(req: FastifyRequest): Promise<void> {
  req.query = cleanStrings(req.query);
  req.params = cleanStrings(req.params);
  if (req.body !== null && typeof req.body === 'object' && !Buffer.isBuffer(req.body)) req.body = cleanStrings(req.body);
  else if (typeof req.body === 'string') req.body = cleanString(req.body);
}
