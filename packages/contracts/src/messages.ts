import { z } from 'zod';
import { jsonIdList } from './contacts.js';
import { looseBoolean } from './lenient.js';
import { messageSchema, ticketSchema } from './tickets.js';

/** Conversation requests (spec 2 §7 Messages, Quick messages; API-CONTRACT). */

export const MESSAGES_PER_PAGE = 20;
/** An own message may be edited this long after it was created (spec 2 §5). */
export const MESSAGE_EDIT_WINDOW_MS = 900_000;
/** Longest text an attendant sends in one message. */
export const MESSAGE_BODY_MAX = 65_536;


/** `GET /messages/{ticketId}`. */
export const listMessagesQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  selectedQueues: jsonIdList.optional(),
});
export type ListMessagesQuery = z.input<typeof listMessagesQuery>;

export const listMessagesResponse = z.object({
  messages: z.array(messageSchema),
  ticket: ticketSchema,
  count: z.number(),
  hasMore: z.boolean(),
});
export type ListMessagesResponse = z.infer<typeof listMessagesResponse>;

/** The contact card of `vCard`: the picked contact itself (as Whaticket sends it), or `{ contact }` around it. */
const cardContact = z.object({ name: z.string().trim().min(1).max(250), number: z.string().trim().min(1).max(50) });
const vCardField = z.union([cardContact, z.object({ contact: cardContact }).transform((v) => v.contact)]);

/** `POST /messages/{ticketId}` as JSON. `read`, `fromMe` and `mediaUrl` are accepted and ignored (the server decides them). */
export const sendMessageBody = z.object({
  body: z.string().max(MESSAGE_BODY_MAX).nullable().optional(),
  isPrivate: looseBoolean.optional().default(false),
  /** The replied-to message (clients send the whole message; only its id is read). */
  quotedMsg: z.object({ id: z.coerce.number().int().positive() }).nullable().optional(),
  vCard: vCardField.nullable().optional(),
  read: z.unknown().optional(),
  fromMe: z.unknown().optional(),
  mediaUrl: z.unknown().optional(),
});
export type SendMessageBody = z.input<typeof sendMessageBody>;

/** The text fields of a multipart `POST /messages/{ticketId}` (`body` once per file, in file order). */
export const sendMediaFields = z.object({ isPrivate: looseBoolean.optional().default(false), body: z.array(z.string().max(MESSAGE_BODY_MAX)).default([]) });

/** `POST /messages/edit/{messageId}`. */
export const editMessageBody = z.object({ body: z.string().max(MESSAGE_BODY_MAX) });
export type EditMessageBody = z.infer<typeof editMessageBody>;

/** `POST /message/forward` (one call per message; clients space them 900 ms apart). */
export const forwardMessageBody = z.object({
  messageId: z.coerce.number().int().positive(),
  contactId: z.coerce.number().int().positive(),
  signMessage: looseBoolean.optional().default(false),
});
export type ForwardMessageBody = z.input<typeof forwardMessageBody>;

/** A quick reply as `GET /quick-messages/list` answers it. */
export const quickMessageSchema = z.object({
  id: z.number(),
  shortcode: z.string(),
  message: z.string(),
  geral: z.boolean(),
  status: z.boolean(),
  visao: z.boolean(),
  userId: z.number().nullable(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  isMedia: z.boolean(),
  mediaUrl: z.string().nullable(),
});
export type QuickMessage = z.infer<typeof quickMessageSchema>;

/** `GET /quick-messages/list`: the parameters are validated; the caller's company and user decide. */
export const quickMessagesListQuery = z.object({
  companyId: z.coerce.number().int().positive().optional(),
  userId: z.coerce.number().int().positive().optional(),
});
