import { useCallback, useEffect } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { chatRoomEvent, type Chat, type ChatBody, type ChatEventPayload, type ChatMessage, type ChatMessagesPage } from '@balcao/contracts';
import { ApiError, request } from '../../api/http';
import { getToken } from '../../api/storage';
import { apiUrl } from '../../config';
import { chatsListFor } from '../../api/chats';
import { useCompanyEvent } from '../../api/liveEvents';
import { storeRecordChange } from '../../api/pagedList';
import { useUser } from '../../api/session';

const messagesKey = (chatId: number) => ['chats', 'messages', chatId] as const;

/** A chat of the user by its uuid (/chats/{uuid}), when it is not among the pages loaded. */
export function useChatByUuid(uuid: string | undefined, loaded: Chat | undefined) {
  return useQuery({
    queryKey: ['chats', 'one', uuid],
    queryFn: ({ signal }) => request<Chat>(`/chats/${uuid}`, { signal }),
    enabled: uuid !== undefined && loaded === undefined,
    retry: false,
  });
}

/** Adds a message to the newest page, once (the sender gets it from its POST and from the live event). */
function withMessage(data: InfiniteData<ChatMessagesPage> | undefined, message: ChatMessage): InfiniteData<ChatMessagesPage> | undefined {
  if (!data || data.pages.some((p) => p.records.some((m) => m.id === message.id))) return data;
  const [newest, ...older] = data.pages;
  if (!newest) return data;
  return { ...data, pages: [{ ...newest, records: [...newest.records, message], count: newest.count + 1 }, ...older] };
}

/**
 * `GET /chats/{id}/messages` page by page (page 1 the newest) and `company-{companyId}-chat-{chatId}`:
 * the messages oldest first, `loadOlder` for the page before.
 */
export function useChatMessages(chatId: number) {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: messagesKey(chatId),
    queryFn: ({ pageParam, signal }) => request<ChatMessagesPage>(`/chats/${chatId}/messages?pageNumber=${pageParam}`, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last: ChatMessagesPage, pages: ChatMessagesPage[]) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const event = useCallback((companyId: number) => chatRoomEvent(companyId, chatId), [chatId]);
  useCompanyEvent<ChatEventPayload>(event, (payload) => {
    if (payload.action === 'new-message') queryClient.setQueryData(messagesKey(chatId), (d: InfiniteData<ChatMessagesPage> | undefined) => withMessage(d, payload.newMessage));
  });
  const messages = query.data ? [...query.data.pages].reverse().flatMap((p) => p.records) : [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadOlder = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return { messages, loadOlder, hasOlder: hasNextPage, loadingOlder: isFetchingNextPage, loading: query.isPending, error: query.isError, retry: () => void query.refetch() };
}

/** A message to send: text, or a file with an optional caption (multipart, the file in `medias`). */
export interface ChatDraft {
  message: string;
  file?: File;
}

function draftBody({ message, file }: ChatDraft): FormData | { message: string } {
  if (!file) return { message };
  const form = new FormData();
  form.append('message', message);
  form.append('medias', file, file.name);
  return form;
}

export function useSendChatMessage(chatId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: ChatDraft) => request<ChatMessage>(`/chats/${chatId}/messages`, { method: 'POST', body: draftBody(draft) }),
    onSuccess: (message) => queryClient.setQueryData(messagesKey(chatId), (d: InfiniteData<ChatMessagesPage> | undefined) => withMessage(d, message)),
  });
}

/** `POST /chats/{id}/read`: the user's unread count of the chat goes to 0 everywhere it shows. */
export function useReadChat() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: (chatId: number) => request<Chat>(`/chats/${chatId}/read`, { method: 'POST', body: { userId: user.id } }),
    onSuccess: (chat) => storeRecordChange(queryClient, chatsListFor(user.id), { kind: 'upsert', record: chat }),
  });
}

export function useSaveChat() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ChatBody }) =>
      id === null ? request<Chat>('/chats', { method: 'POST', body }) : request<Chat>(`/chats/${id}`, { method: 'PUT', body }),
    onSuccess: (chat) => storeRecordChange(queryClient, chatsListFor(user.id), { kind: 'upsert', record: chat }),
  });
}

export function useDeleteChat() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: (id: number) => request(`/chats/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => storeRecordChange(queryClient, chatsListFor(user.id), { kind: 'delete', id }),
  });
}

/** The company's users the dialog offers (`GET /users/list`). */
export function useCompanyUsers(enabled: boolean) {
  return useQuery({
    queryKey: ['chats', 'users'],
    queryFn: ({ signal }) => request<{ id: number; name: string }[]>('/users/list', { signal }),
    enabled,
    staleTime: 60_000,
  });
}

/**
 * A chat file (served to members only, so fetched with the user's token: an `<img>` cannot send it)
 * as an object URL, released when no longer shown.
 */
export function useChatMedia(url: string | null) {
  const query = useQuery({
    queryKey: ['chats', 'media', url],
    queryFn: async ({ signal }) => {
      const token = getToken();
      const res = await fetch(`${apiUrl()}${url}`, { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'include', signal });
      if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
      return URL.createObjectURL(await res.blob());
    },
    enabled: url !== null,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const objectUrl = query.data;
  useEffect(() => () => (objectUrl ? URL.revokeObjectURL(objectUrl) : undefined), [objectUrl]);
  return { objectUrl, error: query.isError };
}
