import { useQuery } from '@tanstack/react-query';
import type { Queue } from '@balcao/contracts';
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
