import { z } from 'zod';
import { requiredText } from './validation.js';

/** A member of an internal chat (spec 3 §3 "Chat"): `unreads` counts the messages they have not read. */
export const chatUserSchema = z.object({
  userId: z.number(),
  unreads: z.number(),
  user: z.object({ id: z.number(), name: z.string() }),
});
export type ChatUser = z.infer<typeof chatUserSchema>;

/** An internal chat between staff of one company (spec 3 §3). `ownerId` alone may edit or delete it. */
export const chatSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  ownerId: z.number().nullable(),
  users: z.array(chatUserSchema),
  lastMessage: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Chat = z.infer<typeof chatSchema>;

/** A message of an internal chat (spec 3 §3 "Chat message"). */
export const chatMessageSchema = z.object({
  id: z.number(),
  chatId: z.number(),
  senderId: z.number().nullable(),
  sender: z.object({ id: z.number(), name: z.string() }).nullable(),
  message: z.string(),
  /** The attached file (docs/chats.md): its original name, MIME type, and the members-only path that serves it. */
  mediaName: z.string().nullable(),
  mediaType: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const CHAT_TITLE_MAX = 100;
export const CHAT_MESSAGE_MAX = 5000;
export const CHAT_MAX_USERS = 200;
/** A chat attachment's size limit (413 ERR_FILE_TOO_LARGE beyond). */
export const CHAT_MEDIA_MAX_BYTES = 10 * 1024 * 1024;
/** The path (under the API) serving a chat message's file to the chat's members. */
export const chatMediaPath = (chatId: number, messageId: number) => `/chats/${chatId}/messages/${messageId}/media`;

/**
 * `users` as the original client sends them (user objects with an id) or plain ids: at least one
 * other user (spec 3 §5 "save disabled unless a title and at least one user exist").
 */
const chatUsersField = z
  .array(z.union([idLike(), z.object({ id: idLike() }).transform((u) => u.id)]))
  .min(1, 'Required')
  .max(CHAT_MAX_USERS)
  .transform((ids) => [...new Set(ids)]);

function idLike() {
  return z.coerce.number().int().positive().max(2_147_483_647);
}

/** POST /chats and PUT /chats/{id}. */
export const chatBody = z.object({ title: requiredText(1, CHAT_TITLE_MAX), users: chatUsersField });
export type ChatBody = z.input<typeof chatBody>;

/** POST /chats/{id}/messages: a message that is not only blanks. */
export const chatMessageBody = z.object({ message: requiredText(1, CHAT_MESSAGE_MAX) });
/** The text fields of a multipart chat message (`medias` holds the file): the text is optional with a file. */
export const chatMediaFields = z.object({ message: z.string().trim().max(CHAT_MESSAGE_MAX).default('') });

/** POST /chats/{id}/read: `userId` is the caller's own (any other is refused). */
export const chatReadBody = z.object({ userId: idLike().optional() });

/** GET /chats (searchParam, pageNumber) and GET /chats/{id}/messages (pageNumber). */
export const chatsPageSchema = z.object({ records: z.array(chatSchema), count: z.number(), hasMore: z.boolean() });
export type ChatsPage = z.infer<typeof chatsPageSchema>;
export const chatMessagesPageSchema = z.object({ records: z.array(chatMessageSchema), count: z.number(), hasMore: z.boolean() });
export type ChatMessagesPage = z.infer<typeof chatMessagesPageSchema>;

/** `company-{companyId}-chat-user-{userId}`: a chat the user belongs to was created, changed, or removed (deleted, or the user left it). */
export type ChatUserEventPayload = { action: 'create' | 'update'; record: Chat } | { action: 'delete'; id: number };
/** `company-{companyId}-chat` (new-message or update) and `company-{companyId}-chat-{chatId}` (new-message). */
export type ChatEventPayload = { action: 'new-message'; newMessage: ChatMessage; chat: Chat } | { action: 'update'; chat: Chat };

export const chatUserEvent = (companyId: number, userId: number) => `company-${companyId}-chat-user-${userId}` as const;
export const chatRoomEvent = (companyId: number, chatId: number) => `company-${companyId}-chat-${chatId}` as const;
