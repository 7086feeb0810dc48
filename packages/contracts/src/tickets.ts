import { z } from 'zod';
import { toggleSchema } from './lenient.js';
import { channelSchema } from './whatsapp.js';

/** Ticket, contact and message shapes (spec 2 §3, API-CONTRACT "Shapes of the busiest calls"). */
export const TICKET_STATUSES = ['pending', 'open', 'group', 'closed', 'nps', 'lgpd'] as const;
export const ticketStatusSchema = z.enum(TICKET_STATUSES);
export type TicketStatus = z.infer<typeof ticketStatusSchema>;
/** Statuses of the one live ticket a contact may have per connection (a database index enforces it). */
export const ACTIVE_TICKET_STATUSES = ['pending', 'open', 'group', 'nps', 'lgpd'] as const satisfies readonly TicketStatus[];

/** `mediaType` values (spec 2 §3) plus `chat` (text) and `sticker`; documents are `application`, as their MIME family. */
export const MEDIA_TYPES = [
  'chat',
  'image',
  'audio',
  'video',
  'application',
  'sticker',
  'locationMessage',
  'contactMessage',
  'call_log',
  'reactionMessage',
] as const;
export const mediaTypeSchema = z.enum(MEDIA_TYPES);
export type MediaType = z.infer<typeof mediaTypeSchema>;

/** Message ack (spec 2 §4): 0 stored/pending, 1 sent, 2 delivered, 3 read, 4 read/played (audio), 5 played. */
export const ACK = { pending: 0, sent: 1, delivered: 2, read: 3, played: 5 } as const;
/** Outbox state of an outgoing message; null for received ones. */
export const SEND_STATUSES = ['pending', 'sent', 'failed'] as const;
export const sendStatusSchema = z.enum(SEND_STATUSES);

export const tagRefSchema = z.object({ id: z.number(), name: z.string(), color: z.string() });
export const extraInfoSchema = z.object({ id: z.number(), name: z.string(), value: z.string() });

export const contactSchema = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  channel: channelSchema,
  isGroup: z.boolean(),
  urlPicture: z.string().nullable(),
  profilePicUrl: z.string().nullable(),
  active: z.boolean(),
  acceptAudioMessage: z.boolean(),
  disableBot: z.boolean(),
  lgpdAcceptedAt: z.string().nullable(),
  extraInfo: z.array(extraInfoSchema),
  tags: z.array(tagRefSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Contact = z.infer<typeof contactSchema>;

/** A ticket as `GET /tickets/u/{uuid}` and `company-{id}-ticket` carry it. */
export const ticketSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  companyId: z.number(),
  status: ticketStatusSchema,
  userId: z.number().nullable(),
  queueId: z.number().nullable(),
  contactId: z.number(),
  whatsappId: z.number().nullable(),
  isGroup: z.boolean(),
  channel: channelSchema,
  useIntegration: z.boolean(),
  lastMessage: z.string(),
  unreadMessages: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  closedAt: z.string().nullable(),
  contact: contactSchema,
  queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  tags: z.array(tagRefSchema),
  whatsapp: z
    .object({
      id: z.number(),
      name: z.string(),
      expiresTicket: z.number(),
      groupAsTicket: toggleSchema,
      channel: channelSchema,
      /** Beyond the spec: resolving "with farewell" sends something (a farewell or rating message); the user's own farewell aside. */
      hasFarewell: z.boolean(),
    })
    .nullable(),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const quotedMessageSchema = z.object({
  id: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: mediaTypeSchema,
  mediaUrl: z.string().nullable(),
  contact: z.object({ id: z.number(), name: z.string() }).nullable(),
});

export const messageSchema = z.object({
  id: z.number(),
  wid: z.string().nullable(),
  body: z.string(),
  fromMe: z.boolean(),
  read: z.boolean(),
  ack: z.number().int().min(0).max(5),
  mediaType: mediaTypeSchema,
  mediaUrl: z.string().nullable(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  isForwarded: z.boolean(),
  isPrivate: z.boolean(),
  /** Outbox state (Balcão): `failed` means every send attempt failed; shown on the bubble. */
  sendStatus: sendStatusSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  ticketId: z.number(),
  contactId: z.number().nullable(),
  queueId: z.number().nullable(),
  quotedMsgId: z.number().nullable(),
  quotedMsg: quotedMessageSchema.nullable(),
  contact: z.object({ id: z.number(), name: z.string() }).nullable(),
  ticket: z.object({ id: z.number(), uuid: z.string(), queue: z.object({ name: z.string() }).nullable() }),
});
export type Message = z.infer<typeof messageSchema>;

export type TicketEventPayload =
  | { action: 'update'; ticket: Ticket }
  | { action: 'delete'; ticketId: number }
  | { action: 'updateUnread'; ticketId: number };

export type AppMessageEventPayload =
  | { action: 'create'; message: Message; ticket: Ticket; contact: Contact }
  | { action: 'update'; message: Message };

export type ContactEventPayload = { action: 'create' | 'update'; contact: Contact } | { action: 'delete'; contactId: number };

/** NPS rating scale sent to the customer after closing (spec 1 §3, §5). */
export const NPS_MIN = 0;
export const NPS_MAX = 10;

/** Ticket-log entry types (spec 2 §3); every transition writes one. */
export const TICKET_LOG_TYPES = [
  'create',
  'chatBot',
  'queue',
  'open',
  'access',
  'transfered',
  'receivedTransfer',
  'pending',
  'closed',
  'reopen',
  'redirect',
  /** An integration (n8n, webhook, Typebot, Dialogflow) could not take the customer's message (issue 16). */
  'integrationFailed',
] as const;
export const ticketLogTypeSchema = z.enum(TICKET_LOG_TYPES);
export type TicketLogType = z.infer<typeof ticketLogTypeSchema>;
