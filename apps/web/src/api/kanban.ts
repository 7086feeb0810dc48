import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { KANBAN_VALUE_FIELD, type KanbanTicket, type Tag } from '@balcao/contracts';
import { request } from './http';
import { useCompanyEvent } from './liveEvents';
import { useSession, useUser } from './session';

/** The kanban board's data (spec 2 §7, docs/kanban.md): lanes, cards, moves between lanes and the opportunity value. */

const LANES_KEY = ['kanban', 'lanes'] as const;
const TICKETS_KEY = ['kanban', 'tickets'] as const;

/** `GET /tag/kanban/` → `{ lista }`: the lanes in column order; only for plans with `useKanban`. */
export function useKanbanLanes() {
  const user = useUser();
  return useQuery({
    queryKey: LANES_KEY,
    queryFn: async ({ signal }) => (await request<{ lista: Tag[] }>('/tag/kanban/', { signal })).lista,
    enabled: user.company.plan?.useKanban === true,
  });
}

/** `GET /ticket/kanban` for the caller's queues, last active between the two days (yyyy-MM-dd). */
export function useKanbanTickets(range: { startDate: string; endDate: string }) {
  const user = useUser();
  const queueIds = JSON.stringify(user.queues.map((q) => q.id));
  const params = new URLSearchParams({ queueIds, ...range });
  return useQuery({
    queryKey: [...TICKETS_KEY, queueIds, range.startDate, range.endDate],
    queryFn: async ({ signal }) => (await request<{ tickets: KanbanTicket[] }>(`/ticket/kanban?${params.toString()}`, { signal })).tickets,
  });
}

const LIVE_REFETCH_MS = 500;
const refetchBoard = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: TICKETS_KEY });

/**
 * The board refetches on ticket and message events (spec 2 §7 "Realtime") and on contact events
 * (a value set by someone else), and its lanes on `company{id}-tag`.
 */
export function useKanbanLive(): void {
  const queryClient = useQueryClient();
  // A busy company sends many events a second: one refetch per burst, not one per event.
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const refetchSoon = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void refetchBoard(queryClient), LIVE_REFETCH_MS);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  useCompanyEvent('ticket', refetchSoon);
  useCompanyEvent('appMessage', refetchSoon);
  useCompanyEvent('contact', refetchSoon);
  const { socket, user } = useSession();
  const companyId = user?.companyId;
  useEffect(() => {
    if (!socket || companyId === undefined) return;
    const event = `company${companyId}-tag`;
    const listener = () => void queryClient.invalidateQueries({ queryKey: LANES_KEY });
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, companyId, queryClient]);
}

/**
 * Kanban drag (spec 2 §4): `DELETE /ticket-tags/{ticketId}`, then `PUT /ticket-tags/{ticketId}/{laneId}`;
 * the default column (null) only removes. The card moves at once; the board refetches afterwards.
 */
export function useMoveToLane() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ticketId, lane }: { ticketId: number; lane: Pick<Tag, 'id' | 'name' | 'color'> | null }) => {
      await request(`/ticket-tags/${ticketId}`, { method: 'DELETE' });
      if (lane) await request(`/ticket-tags/${ticketId}/${lane.id}`, { method: 'PUT' });
    },
    onMutate: async ({ ticketId, lane }) => {
      await queryClient.cancelQueries({ queryKey: TICKETS_KEY });
      queryClient.setQueriesData<KanbanTicket[]>({ queryKey: TICKETS_KEY }, (list) =>
        list?.map((card) => (card.id === ticketId ? { ...card, tags: lane ? [{ id: lane.id, name: lane.name, color: lane.color }] : [] } : card)),
      );
    },
    onSettled: () => refetchBoard(queryClient),
  });
}

/**
 * The opportunity value: the contact's extra info `valor` set (a number) or removed (null)
 * with `PUT /contacts/{id}`; the contact's other extra info is sent back unchanged.
 */
export function useSetOpportunityValue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ contact, value }: { contact: KanbanTicket['contact']; value: number | null }) => {
      const others = contact.extraInfo.filter((e) => e.name !== KANBAN_VALUE_FIELD).map(({ name, value: v }) => ({ name, value: v }));
      const extraInfo = value === null ? others : [...others, { name: KANBAN_VALUE_FIELD, value: value.toFixed(2) }];
      return request(`/contacts/${contact.id}`, { method: 'PUT', body: { extraInfo } });
    },
    onSettled: () => refetchBoard(queryClient),
  });
}
