import { useQuery } from '@tanstack/react-query';
import type { Queue, User } from '@balcao/contracts';
import { request } from './http';

/** `GET /queue/{id}`: the queue with its chatbot option tree (the list has no trees). */
export function useQueueRecord(id: number | null) {
  return useQuery({
    queryKey: ['queues', 'one', id ?? 0],
    queryFn: ({ signal }) => request<Queue>(`/queue/${id}`, { signal }),
    enabled: id !== null,
    gcTime: 0,
  });
}

/** Users named like `search` for a bot's attendant option; asked from 3 characters on (spec 3 §5). */
export function useUserSearch(search: string) {
  const term = search.trim();
  return useQuery({
    queryKey: ['users', 'botSearch', term],
    queryFn: ({ signal }) => request<{ users: User[] }>(`/users/?searchParam=${encodeURIComponent(term)}&pageNumber=1`, { signal }).then((p) => p.users),
    enabled: term.length >= 3,
  });
}
