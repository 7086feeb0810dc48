import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppMessageEventPayload, MomentTicket, Ticket, TicketEventPayload } from '@balcao/contracts';
import { request } from '../../api/http';
import { useCompanyEvent } from '../../api/liveEvents';

const momentsKey = ['moments'] as const;

/** `GET /dashboard/moments`: open and pending tickets of the last 30 days the caller may see. */
export function useMoments() {
  return useQuery({ queryKey: momentsKey, queryFn: ({ signal }) => request<MomentTicket[]>('/dashboard/moments', { signal }) });
}

const SHOWN = new Set(['open', 'pending']);

const toMoment = (t: Ticket): MomentTicket => ({
  id: t.id,
  uuid: t.uuid,
  status: t.status,
  userId: t.userId,
  unreadMessages: t.unreadMessages,
  lastMessage: t.lastMessage,
  updatedAt: t.updatedAt,
  user: t.user,
  contact: { id: t.contact.id, name: t.contact.name, profilePicUrl: t.contact.profilePicUrl },
  whatsapp: t.whatsapp ? { id: t.whatsapp.id, name: t.whatsapp.name } : null,
  queue: t.queue,
});

/** A ticket as it is now: kept (newest first) while open or pending, else dropped. */
function place(list: MomentTicket[], ticket: Ticket): MomentTicket[] {
  const rest = list.filter((m) => m.id !== ticket.id);
  return SHOWN.has(ticket.status) ? [toMoment(ticket), ...rest].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)) : rest;
}

/** Ticket and message events applied to the panel's cache (no refetch); the server sends only what the caller may see. */
export function useMomentsLive(): void {
  const queryClient = useQueryClient();
  const update = (change: (list: MomentTicket[]) => MomentTicket[]) => queryClient.setQueryData<MomentTicket[]>(momentsKey, (list) => (list ? change(list) : list));
  useCompanyEvent<TicketEventPayload>('ticket', (p) => {
    if (p.action === 'update') update((list) => place(list, p.ticket));
    else if (p.action === 'delete') update((list) => list.filter((m) => m.id !== p.ticketId));
    else update((list) => list.map((m) => (m.id === p.ticketId ? { ...m, unreadMessages: 0 } : m)));
  });
  useCompanyEvent<AppMessageEventPayload>('appMessage', (p) => {
    if (p.action === 'create') update((list) => place(list, p.ticket));
  });
}
