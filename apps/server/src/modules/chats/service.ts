import type { Chat, ChatMessage, ChatMessagesPage, ChatsPage, PageQuery } from '@balcao/contracts';
import { and, count, desc, eq, exists, ilike, inArray, isNotNull, ne, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { chatMessages, chatUsers, chats, users } from '../../db/schema/index.js';
import { containsPattern } from '../../db/search.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { presentChat, presentChatMessage, presentChats, type ChatRow } from './presenter.js';

export const CHATS_PAGE_SIZE = 20;
export const CHAT_MESSAGES_PAGE_SIZE = 20;

/** A chat by id or uuid (the web app's /chats/{uuid}). */
export type ChatRef = number | string;

const isMember = (userId: number) =>
  exists(
    sql`(select 1 from ${chatUsers} where ${chatUsers.chatId} = ${chats.id} and ${chatUsers.userId} = ${userId})`,
  );

/**
 * The chat, when the caller belongs to it; anyone else (another company, a colleague outside
 * the chat) gets 404, so a chat's existence is not told to non-members.
 */
export async function memberChat(db: DbOrTx, user: AuthUser, ref: ChatRef): Promise<ChatRow> {
  const byRef = typeof ref === 'number' ? eq(chats.id, ref) : eq(chats.uuid, ref);
  const [row] = await db
    .select()
    .from(chats)
    .where(and(byRef, eq(chats.companyId, user.companyId), isMember(user.id)));
  if (!row) throw new AppError('ERR_NO_CHAT_FOUND', 404);
  return row;
}

/** Edit and delete: the owner alone (spec 3 §6); other members get 403. */
async function ownedChat(db: DbOrTx, user: AuthUser, id: number): Promise<ChatRow> {
  const row = await memberChat(db, user, id);
  if (row.ownerId !== user.id) throw new AppError('ERR_NO_PERMISSION', 403);
  return row;
}

/** Every id must be a user of the caller's company; the owner is always a member. */
async function memberIds(db: DbOrTx, user: AuthUser, ids: number[]): Promise<number[]> {
  const wanted = [...new Set([user.id, ...ids])];
  const found = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, user.companyId), inArray(users.id, wanted)));
  if (found.length !== wanted.length) throw new AppError('ERR_NO_USER_FOUND', 404);
  return wanted;
}

/** GET /chats: the caller's chats, most recently active first. */
export async function pageChats(ctx: AppContext, user: AuthUser, { searchParam, pageNumber = 1 }: PageQuery): Promise<ChatsPage> {
  const term = containsPattern(searchParam);
  const where = and(eq(chats.companyId, user.companyId), isMember(user.id), term ? ilike(chats.title, term) : undefined);
  const [total] = await ctx.db.select({ n: count() }).from(chats).where(where);
  const rows = await ctx.db
    .select()
    .from(chats)
    .where(where)
    .orderBy(desc(chats.updatedAt), desc(chats.id))
    .limit(CHATS_PAGE_SIZE)
    .offset((pageNumber - 1) * CHATS_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { records: await presentChats(ctx.db, rows), count: n, hasMore: pageNumber * CHATS_PAGE_SIZE < n };
}

export async function getChat(ctx: AppContext, user: AuthUser, ref: ChatRef): Promise<Chat> {
  return presentChat(ctx.db, await memberChat(ctx.db, user, ref));
}

export async function createChat(ctx: AppContext, user: AuthUser, body: { title: string; users: number[] }): Promise<Chat> {
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const ids = await memberIds(tx, user, body.users);
    const [row] = await tx.insert(chats).values({ companyId: user.companyId, title: body.title, ownerId: user.id }).returning();
    if (!row) throw new AppError('ERR_INTERNAL', 500);
    await tx.insert(chatUsers).values(ids.map((userId) => ({ chatId: row.id, userId, companyId: user.companyId })));
    const chat = await presentChat(tx, row);
    publish({ type: 'chat.saved', companyId: user.companyId, action: 'create', chat, removedUserIds: [] });
    return chat;
  });
}

/** PUT /chats/{id}: title and members (the owner stays); members taken out hear that the chat left them. */
export async function updateChat(ctx: AppContext, user: AuthUser, id: number, body: { title: string; users: number[] }): Promise<Chat> {
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    await ownedChat(tx, user, id);
    const ids = await memberIds(tx, user, body.users);
    const removed = await tx
      .delete(chatUsers)
      .where(and(eq(chatUsers.chatId, id), notInArray(chatUsers.userId, ids)))
      .returning({ userId: chatUsers.userId });
    await tx
      .insert(chatUsers)
      .values(ids.map((userId) => ({ chatId: id, userId, companyId: user.companyId })))
      .onConflictDoNothing();
    const [row] = await tx.update(chats).set({ title: body.title }).where(eq(chats.id, id)).returning();
    const chat = await presentChat(tx, row!);
    publish({ type: 'chat.saved', companyId: user.companyId, action: 'update', chat, removedUserIds: removed.map((r) => r.userId) });
    return chat;
  });
}

/** The owner deletes a chat: its messages and, once committed, their files go with it. */
export async function deleteChat(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  const files = await ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    await ownedChat(tx, user, id);
    const members = await tx.select({ userId: chatUsers.userId }).from(chatUsers).where(eq(chatUsers.chatId, id));
    const media = await tx
      .select({ path: chatMessages.mediaPath })
      .from(chatMessages)
      .where(and(eq(chatMessages.chatId, id), isNotNull(chatMessages.mediaPath)));
    await tx.delete(chats).where(eq(chats.id, id));
    publish({ type: 'chat.deleted', companyId: user.companyId, chatId: id, memberIds: members.map((m) => m.userId) });
    return media.map((m) => m.path!);
  });
  for (const path of files) await ctx.storage.remove(user.companyId, path).catch((err: unknown) => ctx.log.warn({ err, path }, 'could not remove a chat file'));
}

/** GET /chats/{id}/messages: page 1 holds the newest; each page is oldest first, as the list shows it. */
export async function pageChatMessages(ctx: AppContext, user: AuthUser, id: number, pageNumber: number): Promise<ChatMessagesPage> {
  await memberChat(ctx.db, user, id);
  const [total] = await ctx.db.select({ n: count() }).from(chatMessages).where(eq(chatMessages.chatId, id));
  const rows = await ctx.db
    .select({ message: chatMessages, sender: { id: users.id, name: users.name } })
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.senderId))
    .where(eq(chatMessages.chatId, id))
    .orderBy(desc(chatMessages.id))
    .limit(CHAT_MESSAGES_PAGE_SIZE)
    .offset((pageNumber - 1) * CHAT_MESSAGES_PAGE_SIZE);
  const n = total?.n ?? 0;
  return {
    records: rows.reverse().map((r) => presentChatMessage(r.message, r.sender)),
    count: n,
    hasMore: pageNumber * CHAT_MESSAGES_PAGE_SIZE < n,
  };
}

/** A stored file a chat message carries. */
export interface ChatAttachment {
  path: string;
  name: string;
  mimetype: string;
}

/**
 * POST /chats/{id}/messages: stored, the chat's preview moves to it (the file's name when there is
 * no text), every other member gets one more unread.
 */
export async function sendChatMessage(ctx: AppContext, user: AuthUser, id: number, text: string, media?: ChatAttachment): Promise<ChatMessage> {
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    await memberChat(tx, user, id);
    const [row] = await tx
      .insert(chatMessages)
      .values({ chatId: id, companyId: user.companyId, senderId: user.id, message: text, mediaPath: media?.path, mediaName: media?.name, mediaMimetype: media?.mimetype })
      .returning();
    if (!row) throw new AppError('ERR_INTERNAL', 500);
    await tx
      .update(chatUsers)
      .set({ unreads: sql`${chatUsers.unreads} + 1` })
      .where(and(eq(chatUsers.chatId, id), ne(chatUsers.userId, user.id)));
    const [chatRow] = await tx
      .update(chats)
      .set({ lastMessage: text || media?.name || '' })
      .where(eq(chats.id, id))
      .returning();
    const [sender] = await tx.select({ id: users.id, name: users.name }).from(users).where(eq(users.id, user.id));
    const message = presentChatMessage(row, sender ?? null);
    publish({ type: 'chat.message', companyId: user.companyId, chat: await presentChat(tx, chatRow!), message });
    return message;
  });
}

/** POST /chats/{id}/read: the caller's unread count goes to 0 (a `userId` other than the caller's is refused). */
export async function readChat(ctx: AppContext, user: AuthUser, id: number, userId: number | undefined): Promise<Chat> {
  if (userId !== undefined && userId !== user.id) throw new AppError('ERR_NO_PERMISSION', 403);
  return ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const row = await memberChat(tx, user, id);
    await tx
      .update(chatUsers)
      .set({ unreads: 0 })
      .where(and(eq(chatUsers.chatId, id), eq(chatUsers.userId, user.id)));
    const chat = await presentChat(tx, row);
    publish({ type: 'chat.read', companyId: user.companyId, chat });
    return chat;
  });
}
