import { chatMediaPath, type Chat, type ChatMessage } from '@balcao/contracts';
import { asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { chatMessages, chatUsers, chats, users } from '../../db/schema/index.js';

export type ChatRow = typeof chats.$inferSelect;
type MessageRow = typeof chatMessages.$inferSelect;

/** Chats with their members (one query for all of them), in the order given. */
export async function presentChats(db: DbOrTx, rows: ChatRow[]): Promise<Chat[]> {
  if (rows.length === 0) return [];
  const members = await db
    .select({ chatId: chatUsers.chatId, userId: chatUsers.userId, unreads: chatUsers.unreads, name: users.name })
    .from(chatUsers)
    .innerJoin(users, eq(users.id, chatUsers.userId))
    .where(
      inArray(
        chatUsers.chatId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(users.name), asc(users.id));
  return rows.map((row) => ({
    id: row.id,
    uuid: row.uuid,
    title: row.title,
    ownerId: row.ownerId,
    users: members.filter((m) => m.chatId === row.id).map((m) => ({ userId: m.userId, unreads: m.unreads, user: { id: m.userId, name: m.name } })),
    lastMessage: row.lastMessage,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

export async function presentChat(db: DbOrTx, row: ChatRow): Promise<Chat> {
  const [chat] = await presentChats(db, [row]);
  return chat!;
}

export function presentChatMessage(row: MessageRow, sender: { id: number; name: string } | null): ChatMessage {
  return {
    id: row.id,
    chatId: row.chatId,
    senderId: row.senderId,
    sender,
    message: row.message,
    mediaName: row.mediaPath ? row.mediaName : null,
    mediaType: row.mediaPath ? row.mediaMimetype : null,
    mediaUrl: row.mediaPath ? chatMediaPath(row.chatId, row.id) : null,
    createdAt: row.createdAt.toISOString(),
  };
}
