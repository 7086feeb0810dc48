import { z } from 'zod';
import { looseFlag, optionalId } from './lenient.js';
import { MESSAGE_BODY_MAX } from './messages.js';

/**
 * `POST /api/messages/send` (spec 3 §7 External messages API), authorised by a
 * connection's token. The same fields come as JSON or as multipart text fields
 * (then every value is a string), so each one accepts both forms.
 */
export const externalSendFields = z.object({
  /** The contact's number (WhatsApp: international digits, punctuation ignored; Meta: its page-scoped id). */
  number: z.string().trim().min(1).max(50),
  body: z.string().max(MESSAGE_BODY_MAX).nullable().optional(),
  userId: optionalId.optional(),
  queueId: optionalId.optional(),
  /** Prefix the text with the user's name in bold (needs `userId`). */
  sendSignature: looseFlag(false).optional().default(false),
  closeTicket: looseFlag(false).optional().default(false),
  /** A message of this conversation to reply to (its id). */
  quotedMsg: z.object({ id: z.coerce.number().int().positive() }).nullable().optional(),
});
export type ExternalSendFields = z.output<typeof externalSendFields>;

export const externalSendResponse = z.object({
  status: z.literal('SUCCESS'),
  /** The id of the (last) message stored and queued for sending. */
  messageId: z.number(),
  ticketId: z.number(),
});
export type ExternalSendResponse = z.infer<typeof externalSendResponse>;
