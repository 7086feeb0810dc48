import { z } from 'zod';
import { optionalText, requiredText } from './validation.js';

/** A help video (spec 1 §3, 3 §3): `video` is the video code (e.g. a YouTube id). */
export const helpSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string().nullable(),
  video: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Help = z.infer<typeof helpSchema>;

const helpFields = z.object({
  title: requiredText(2, 100),
  description: optionalText(5000),
  video: optionalText(500),
});

export const createHelpBody = helpFields;
export type CreateHelpBody = z.input<typeof createHelpBody>;
export const updateHelpBody = helpFields.partial();
export type UpdateHelpBody = z.input<typeof updateHelpBody>;

/** `GET /helps` (searchParam, pageNumber). */
export const helpsPageSchema = z.object({ records: z.array(helpSchema), count: z.number(), hasMore: z.boolean() });
export type HelpsPage = z.infer<typeof helpsPageSchema>;
