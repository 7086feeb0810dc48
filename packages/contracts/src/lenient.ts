import { z } from 'zod';

/*
 * Values as clients of this API family send them, normalised at the edge into the spec's form
 * (docs/compatibility.md). Anything these rules do not cover still fails with the field named.
 */

export const toggleSchema = z.enum(['enabled', 'disabled']);
export type Toggle = z.infer<typeof toggleSchema>;

/** `true`/`false` as JSON booleans or the strings clients send (`isPrivate: "true"`, multipart fields). */
export const looseBoolean = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** An optional boolean: `null` means its default. */
export const looseFlag = (fallback: boolean) => z.preprocess((v: boolean | 'true' | 'false' | null) => (v === null ? fallback : v), looseBoolean);

const TOGGLE_ALIASES: Record<string, Toggle> = { enable: 'enabled', disable: 'disabled' };

/** What clients send for an enabled/disabled field. */
export type LooseToggle = Toggle | 'enable' | 'disable' | boolean | null;

/** An enabled/disabled field: `"enable"`/`"disable"` and `true`/`false` are its two values, `null` its default. */
export const looseToggle = (fallback: Toggle) =>
  z.preprocess((v: LooseToggle) => {
    if (v === null) return fallback;
    if (typeof v === 'boolean') return v ? 'enabled' : 'disabled';
    return typeof v === 'string' ? (TOGGLE_ALIASES[v] ?? v) : v;
  }, toggleSchema);

/** An optional id: a number or its digits (`"3"`); `""`, `0` and `null` mean none. */
export const optionalId = z.preprocess(
  (v: number | string | null) => (v === '' || v === 0 || v === '0' ? null : v),
  z.coerce.number().int().positive().max(2_147_483_647).nullable(),
);

/** A required id, also sent as its digits (`"3"`). */
export const looseId = z.coerce.number<number | string>().int().positive().max(2_147_483_647);
