import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CloseAllTicketsBody, Contact, CreateTicketBody, Ticket } from '@balcao/contracts';
import type { ListFilters, TicketListPage } from './listModel';
import { request, requestOr } from '../../../api/http';

export const ticketsKeys = {
  lists: ['tickets', 'list'] as const,
  list: (filters: ListFilters) => ['tickets', 'list', filters] as const,
  contactSearch: (search: string) => ['tickets', 'contactSearch', search] as const,
  tagOptions: ['tickets', 'tagOptions'] as const,
  userOptions: ['tickets', 'userOptions'] as const,
  listWidth: (userId: number) => ['tickets', 'listWidth', userId] as const,
};

const json = (list: readonly unknown[]) => JSON.stringify(list);

/**
 * The query string of `GET /tickets` (spec 2 §7): list filters as JSON-encoded
 * arrays; the tag, user, connection and status filters belong to the search view.
 */
export function ticketListQuery(filters: ListFilters, pageNumber: number): string {
  const params = new URLSearchParams({
    pageNumber: String(pageNumber),
    status: filters.view,
    showAll: String(filters.showAll),
    queueIds: json(filters.queueIds),
    withUnreadMessages: 'false',
  });
  if (filters.view !== 'closed' && filters.view !== 'search') params.set('sortTickets', filters.sort);
  if (filters.view === 'search') {
    const search = filters.search.trim();
    if (search) params.set('searchParam', search);
    params.set('searchOnMessages', String(filters.searchOnMessages));
    params.set('tags', json(filters.tags));
    params.set('users', json(filters.users));
    params.set('whatsapps', json(filters.whatsapps));
    params.set('statusFilter', json(filters.statusFilter));
  }
  return params.toString();
}

/** One inbox list, 40 tickets a page, more on scroll. */
export function useTicketList(filters: ListFilters, enabled = true) {
  return useInfiniteQuery({
    queryKey: ticketsKeys.list(filters),
    queryFn: ({ pageParam, signal }) => request<TicketListPage>(`/tickets?${ticketListQuery(filters, pageParam)}`, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
}

/** `POST /tickets`: a 409 names the contact's ticket already open (see `parseTicketConflict`). */
export function useCreateTicket() {
  return useMutation({ mutationFn: (body: CreateTicketBody) => request<Ticket>('/tickets', { method: 'POST', body }) });
}

/** `POST /tickets/closeAll` (admin): closes the tickets of one status in the selected queues. */
export function useCloseAllTickets() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CloseAllTicketsBody) => request('/tickets/closeAll', { method: 'POST', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ticketsKeys.lists }),
  });
}

/** `PUT /tickets/{id}` to accept a pending ticket: open, owned by the user, in a queue. */
export function useAcceptTicket() {
  return useMutation({
    mutationFn: ({ id, userId, queueId }: { id: number; userId: number; queueId: number }) =>
      request<Ticket>(`/tickets/${id}`, { method: 'PUT', body: { status: 'open', userId, queueId } }),
  });
}

/** `PUT /users/toggleChangeWidht/{userId}` (the spec's spelling): the list width this user keeps. */
export function saveTicketsManagerWidth(userId: number, width: number): Promise<unknown> {
  return request(`/users/toggleChangeWidht/${userId}`, { method: 'PUT', body: { defaultTicketsManagerWidth: width } });
}

/** `GET /contacts?searchParam=`: contacts for the new-ticket dialog (the caller waits for 3 characters). */
export function useContactSearch(search: string, enabled: boolean) {
  return useQuery({
    queryKey: ticketsKeys.contactSearch(search),
    queryFn: ({ signal }) =>
      request<{ contacts: Contact[]; hasMore: boolean }>(`/contacts?searchParam=${encodeURIComponent(search)}&pageNumber=1`, { signal }),
    enabled,
    staleTime: 30_000,
  });
}

export interface Option {
  id: number;
  name: string;
  color?: string;
}

const asOptions = (data: unknown): Option[] => (Array.isArray(data) ? (data as Option[]) : []);

/** `GET /tags/list` (a bare array) for the filter panel. */
export function useTagOptions(enabled: boolean) {
  return useQuery({
    queryKey: ticketsKeys.tagOptions,
    queryFn: async () => asOptions(await requestOr<unknown>('/tags/list', [])),
    enabled,
    staleTime: 60_000,
  });
}

/** `GET /users/` for the filter panel's users. */
export function useUserOptions(enabled: boolean) {
  return useQuery({
    queryKey: ticketsKeys.userOptions,
    queryFn: async () => asOptions((await request<{ users?: unknown }>('/users/')).users),
    enabled,
    staleTime: 60_000,
  });
}
