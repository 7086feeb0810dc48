import { z } from 'zod';
import { MSG } from './validation.js';

/** Ticket notes (spec 2 §3, §5, §7): written in the contact drawer of a conversation. */

export const ticketNoteSchema = z.object({
  id: z.number(),
  note: z.string(),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  ticketId: z.number().nullable(),
  contactId: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TicketNote = z.infer<typeof ticketNoteSchema>;

const id = z.coerce.number().int().positive();

/** `POST /ticket-notes`: note required, at least 2 characters. */
export const createTicketNoteBody = z.object({
  note: z
    .string({ error: MSG.required })
    .trim()
    .min(1, { error: MSG.required, abort: true })
    .min(2, MSG.tooShort)
    .max(10_000, MSG.tooLong),
  ticketId: id,
  contactId: id,
});
export type CreateTicketNoteBody = z.input<typeof createTicketNoteBody>;

/** `GET /ticket-notes/list`. */
export const listTicketNotesQuery = z.object({ ticketId: id, contactId: id });
