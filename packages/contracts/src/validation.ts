import { z } from 'zod';

/** The form messages of the spec (1 §5, 3 §5): the web app shows them as they are. */
export const MSG = {
  tooShort: 'Too Short!',
  tooLong: 'Too Long!',
  required: 'Required',
  invalidEmail: 'Invalid email',
} as const;

/** A CSS colour as colour pickers write it: `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA`, `rgb()`/`hsl()` or a colour name. */
export const CSS_COLOR = /^(?:#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|(?:rgb|hsl)a?\([\d\s.,%/]+\)|[a-z]+)$/i;

/** A required, trimmed text of `min`–`max` characters: empty → 'Required', else 'Too Short!' / 'Too Long!'. */
export const requiredText = (min: number, max: number) =>
  z
    .string({ error: MSG.required })
    .trim()
    // An empty field is only 'Required', not also 'Too Short!'.
    .min(1, { error: MSG.required, abort: true })
    .min(min, MSG.tooShort)
    .max(max, MSG.tooLong);

/** An optional free text (messages, addresses): null and '' are kept as given. */
export const optionalText = (max: number) => z.string().max(max, MSG.tooLong).nullable().optional();

/** A required e-mail, stored lowercased. */
export const emailField = z
  .string({ error: MSG.required })
  .trim()
  .toLowerCase()
  .min(1, MSG.required)
  .pipe(z.email(MSG.invalidEmail).max(120, MSG.tooLong));

/** A password of 5–50 characters. */
export const passwordField = z.string({ error: MSG.required }).min(5, MSG.tooShort).max(50, MSG.tooLong);

/** A positive integer id, also from a path or query string; at most PostgreSQL's `integer` (larger ids would overflow in a query). */
export const idParam = z.coerce.number().int().positive().max(2_147_483_647);

/** `{ <records>, count, hasMore }` of the paged lists (`pageNumber` starts at 1). */
export const pageQuery = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type PageQuery = z.output<typeof pageQuery>;
