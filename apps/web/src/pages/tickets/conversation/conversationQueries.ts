import { useEffect } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type {
  AppMessageEventPayload,
  Contact,
  ContactEventPayload,
  Message,
  QuickMessage,
  Ticket,
  TicketEventPayload,
  TicketLog,
  UpdateTicketBody,
} from '@balcao/contracts';
import { appendMessage, replaceMessage, type MessagesPage } from './timeline';
import { request } from '../../../api/http';
import { useCompanyEvent } from '../../../api/liveEvents';
import { useSession } from '../../../api/session';

export const conversationKeys = {
  ticket: (uuid: string) => ['conversation', 'ticket', uuid] as const,
  messages: (ticketId: number) => ['conversation', 'messages', ticketId] as const,
  logs: (ticketId: number) => ['conversation', 'logs', ticketId] as const,
  quickMessages: ['conversation', 'quickMessages'] as const,
};

/** `GET /tickets/u/{uuid}`: the conversation's ticket (404/403 are answered by redirecting, so no retry). */
export function useTicket(uuid: string, enabled = true) {
  return useQuery({
    queryKey: conversationKeys.ticket(uuid),
    queryFn: ({ signal }) => request<Ticket>(`/tickets/u/${encodeURIComponent(uuid)}`, { signal }),
    retry: false,
    enabled,
  });
}

/** `GET /messages/{ticketId}?pageNumber=N`: page 1 is the newest; each next page is older. */
export function useMessages(ticketId: number | undefined) {
  return useInfiniteQuery({
    queryKey: conversationKeys.messages(ticketId ?? 0),
    queryFn: ({ pageParam, signal }) => request<MessagesPage>(`/messages/${ticketId}?pageNumber=${pageParam}`, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled: ticketId !== undefined,
    // The socket keeps the loaded pages current while the conversation is open
    // (a refetch would re-read every page); once it closes the pages are dropped,
    // so reopening starts again from the newest page.
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** Every page of a conversation, oldest page last, for the PDF export. */
export async function fetchAllMessagePages(ticketId: number, maxPages: number): Promise<MessagesPage[]> {
  const pages: MessagesPage[] = [];
  for (let n = 1; n <= maxPages; n++) {
    const page = await request<MessagesPage>(`/messages/${ticketId}?pageNumber=${n}`);
    pages.push(page);
    if (!page.hasMore) break;
  }
  return pages;
}

function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && 'id' in value && 'ticketId' in value && 'fromMe' in value;
}

export interface SendTextInput {
  body: string;
  quotedMsg: Message | null;
  isPrivate: boolean;
  /** A contact card: the server builds the vCard from name and number. */
  vCard?: { id: number; name: string; number: string };
}

export interface SendMediaInput {
  files: { file: Blob; name: string; caption: string }[];
  isPrivate: boolean;
}

/** `POST /messages/{ticketId}` as JSON (text, contact card) or multipart (files with a caption each). */
export function useSendMessage(ticketId: number) {
  const queryClient = useQueryClient();
  const remember = (reply: unknown) => {
    // The socket's create event shows it too; whichever comes first wins, the other is deduplicated.
    if (isMessage(reply) && reply.ticketId === ticketId) {
      queryClient.setQueryData<InfiniteData<MessagesPage>>(conversationKeys.messages(ticketId), (d) => appendMessage(d, reply));
    }
  };
  const text = useMutation({
    mutationFn: ({ body, quotedMsg, isPrivate, vCard }: SendTextInput) =>
      request<unknown>(`/messages/${ticketId}`, {
        method: 'POST',
        body: { read: 1, fromMe: true, mediaUrl: '', body, quotedMsg, isPrivate, ...(vCard ? { vCard } : {}) },
      }),
    onSuccess: remember,
  });
  const media = useMutation({
    mutationFn: ({ files, isPrivate }: SendMediaInput) => {
      const form = new FormData();
      form.append('fromMe', 'true');
      form.append('isPrivate', String(isPrivate));
      for (const f of files) {
        form.append('body', f.caption);
        form.append('medias', f.file, f.name);
      }
      return request<unknown>(`/messages/${ticketId}`, { method: 'POST', body: form });
    },
    onSuccess: (reply) => {
      if (Array.isArray(reply)) reply.forEach(remember);
      else remember(reply);
    },
  });
  return { text, media };
}

/** `POST /messages/edit/{messageId}` `{body}`. */
export function useEditMessage(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: string }) => request<unknown>(`/messages/edit/${id}`, { method: 'POST', body: { body } }),
    onSuccess: (reply) => {
      if (isMessage(reply)) {
        queryClient.setQueryData<InfiniteData<MessagesPage>>(conversationKeys.messages(ticketId), (d) => replaceMessage(d, reply));
      }
    },
  });
}

/** `DELETE /messages/{id}`; the `update` event (isDeleted) changes the bubble. */
export function useDeleteMessage() {
  return useMutation({ mutationFn: (id: number) => request<unknown>(`/messages/${id}`, { method: 'DELETE' }) });
}

/** Spec 2 §7: forwarded messages go 900 ms apart. */
export const FORWARD_INTERVAL_MS = 900;

/** `POST /message/forward`: one call per message per contact, spaced out. */
export async function forwardMessages(
  messageIds: readonly number[],
  contactIds: readonly number[],
  signMessage: boolean,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<void> {
  let first = true;
  for (const contactId of contactIds) {
    for (const messageId of messageIds) {
      if (!first) await wait(FORWARD_INTERVAL_MS);
      first = false;
      await request<unknown>('/message/forward', { method: 'POST', body: { messageId, contactId, signMessage } });
    }
  }
}

/** `PUT /tickets/{id}`: every header transition; the reply is the resulting ticket (maybe another one). */
export function useUpdateTicket(ticket: Ticket) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateTicketBody) => request<Ticket>(`/tickets/${ticket.id}`, { method: 'PUT', body }),
    onSuccess: (next) => {
      if (next && next.id === ticket.id) queryClient.setQueryData(conversationKeys.ticket(ticket.uuid), next);
    },
  });
}

/** `DELETE /tickets/{id}`. */
export function useDeleteTicket() {
  return useMutation({ mutationFn: (id: number) => request<unknown>(`/tickets/${id}`, { method: 'DELETE' }) });
}

/** `GET /tickets-log/{ticketId}`: a bare array, oldest first. */
export function useTicketLogs(ticketId: number, enabled: boolean) {
  return useQuery({
    queryKey: conversationKeys.logs(ticketId),
    queryFn: ({ signal }) => request<TicketLog[]>(`/tickets-log/${ticketId}`, { signal }),
    enabled,
  });
}

/** `GET /quick-messages/list`: the quick replies this user may use (a bare array). */
export function useQuickMessages(companyId: number, userId: number, enabled: boolean) {
  return useQuery({
    queryKey: conversationKeys.quickMessages,
    queryFn: ({ signal }) => request<QuickMessage[]>(`/quick-messages/list?companyId=${companyId}&userId=${userId}`, { signal }),
    enabled,
    staleTime: 60_000,
  });
}

/** `PUT /contacts/toggleDisableBot/{id}`: the reply's disableBot is written into the ticket's contact. */
export function useToggleDisableBot(ticket: Ticket) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request<Pick<Contact, 'disableBot'>>(`/contacts/toggleDisableBot/${ticket.contactId}`, { method: 'PUT' }),
    onSuccess: (reply) => {
      queryClient.setQueryData<Ticket>(conversationKeys.ticket(ticket.uuid), (t) =>
        t ? { ...t, contact: { ...t.contact, disableBot: reply.disableBot } } : t,
      );
    },
  });
}

export interface UserOption {
  id: number;
  name: string;
}

/** `GET /users/?searchParam=`: the transfer dialog's user search (3 characters at least). */
export async function searchUsers(term: string, signal?: AbortSignal): Promise<UserOption[]> {
  const reply = await request<{ users: UserOption[] }>(`/users/?searchParam=${encodeURIComponent(term)}&pageNumber=1`, { signal });
  return reply.users ?? [];
}

export type ContactOption = Pick<Contact, 'id' | 'name' | 'number' | 'urlPicture'> & { channel?: Contact['channel']; isGroup?: boolean };

/** `GET /contacts?searchParam=`: forward (on the ticket's channel only) and contact-card dialogs. */
export async function searchContacts(term: string, channel: Contact['channel'] | null, signal?: AbortSignal): Promise<ContactOption[]> {
  const onChannel = channel ? `&channel=${channel}` : '';
  const reply = await request<{ contacts: ContactOption[] }>(`/contacts?searchParam=${encodeURIComponent(term)}&pageNumber=1${onChannel}`, { signal });
  return reply.contacts ?? [];
}

interface LiveHandlers {
  /** The ticket was deleted, or moved out of this user's sight. */
  onGone: () => void;
}

/**
 * The open conversation follows the socket: its messages (create → append,
 * update → replace), its ticket and its contact; the chat-box room is joined
 * while it is open (and again after a reconnect).
 */
export function useConversationLive(ticket: Ticket | undefined, { onGone }: LiveHandlers): void {
  const queryClient = useQueryClient();
  const { socket } = useSession();
  const ticketId = ticket?.id;
  const uuid = ticket?.uuid;
  const contactId = ticket?.contactId;

  useEffect(() => {
    if (!socket || ticketId === undefined) return;
    socket.emit('joinChatBox', String(ticketId));
    // After a reconnect: join again, and catch up on what was missed meanwhile.
    const rejoin = () => {
      socket.emit('joinChatBox', String(ticketId));
      void queryClient.invalidateQueries({ queryKey: conversationKeys.messages(ticketId) });
      if (uuid !== undefined) void queryClient.invalidateQueries({ queryKey: conversationKeys.ticket(uuid) });
    };
    socket.on('connect', rejoin);
    return () => {
      socket.off('connect', rejoin);
      socket.emit('joinChatBoxLeave', String(ticketId));
    };
  }, [socket, ticketId, uuid, queryClient]);

  useCompanyEvent<AppMessageEventPayload>(
    'appMessage',
    (payload) => {
      if (ticketId === undefined) return;
      const m = payload.message;
      if (!m || (m.ticketId !== ticketId && m.ticket?.uuid !== uuid)) return;
      const key = conversationKeys.messages(ticketId);
      queryClient.setQueryData<InfiniteData<MessagesPage>>(key, (d) =>
        payload.action === 'create' ? appendMessage(d, m) : replaceMessage(d, m),
      );
    },
    ticketId !== undefined,
  );

  useCompanyEvent<TicketEventPayload>(
    'ticket',
    (payload) => {
      if (uuid === undefined) return;
      if (payload.action === 'update' && payload.ticket?.uuid === uuid) {
        queryClient.setQueryData(conversationKeys.ticket(uuid), payload.ticket);
      } else if (payload.action === 'delete' && payload.ticketId === ticketId) {
        onGone();
      }
    },
    uuid !== undefined,
  );

  useCompanyEvent<ContactEventPayload>(
    'contact',
    (payload) => {
      if (uuid === undefined || payload.action === 'delete' || payload.contact?.id !== contactId) return;
      queryClient.setQueryData<Ticket>(conversationKeys.ticket(uuid), (t) => (t ? { ...t, contact: { ...t.contact, ...payload.contact } } : t));
    },
    uuid !== undefined,
  );
}
