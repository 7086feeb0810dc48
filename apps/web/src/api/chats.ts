import { useQueryClient } from '@tanstack/react-query';
import { chatUserEvent, type Chat, type ChatEventPayload, type ChatsPage, type ChatUserEventPayload, type SessionUser } from '@balcao/contracts';
import { listChange, useCompanyEvent } from './liveEvents';
import { storeRecordChange, usePagedList, type PagedList } from './pagedList';
import { useUser } from './session';

export type ChatsList = PagedList<ChatsPage, Chat, ChatUserEventPayload>;

const lists = new Map<number, ChatsList>();

/**
 * `GET /chats` and `company-{companyId}-chat-user-{userId}`: the user's chats (the /chats list, the
 * top-bar bell and the menu dot share its cache). One definition per user, so the live event's name is stable.
 */
export function chatsListFor(userId: number): ChatsList {
  let list = lists.get(userId);
  if (!list) {
    list = {
      key: ['chats', userId, 'page'],
      path: (search, page) => `/chats?searchParam=${encodeURIComponent(search)}&pageNumber=${page}`,
      records: { get: (p) => p.records, set: (p, records) => ({ ...p, records }) },
      matches: (chat, search) => chat.title.toLowerCase().includes(search.trim().toLowerCase()),
      event: (companyId) => chatUserEvent(companyId, userId),
      change: listChange,
    };
    lists.set(userId, list);
  }
  return list;
}

/** The user's unread count in a chat. */
export const unreadsOf = (chat: Chat, userId: number) => chat.users.find((u) => u.userId === userId)?.unreads ?? 0;

const hasInternalChat = (user: SessionUser) => user.company.plan?.useInternalChat === true;

/** The user's chats as the bell and the menu dot read them (nothing without the plan flag), with the total unread. */
export function useChatsOverview() {
  const user = useUser();
  const enabled = hasInternalChat(user);
  const list = usePagedList(chatsListFor(user.id), enabled);
  const unread = list.records.reduce((sum, chat) => sum + unreadsOf(chat, user.id), 0);
  return { enabled, records: list.records, unread };
}

/**
 * `company-{companyId}-chat` (new-message or update): the user's lists get the chat's new preview
 * and unread counts. Mounted once, by the shell.
 */
export function useChatActivity() {
  const user = useUser();
  const queryClient = useQueryClient();
  const list = chatsListFor(user.id);
  useCompanyEvent<ChatEventPayload>(
    'chat',
    (payload) => {
      // A new message moves the chat to the top (as the server orders it); an edit or a read changes it in place.
      if (payload.action === 'new-message') storeRecordChange(queryClient, list, { kind: 'delete', id: payload.chat.id });
      storeRecordChange(queryClient, list, { kind: 'upsert', record: payload.chat });
    },
    hasInternalChat(user),
  );
}
