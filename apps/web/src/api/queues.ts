import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateQueueBody, ListEventPayload, Queue, UpdateQueueBody } from '@balcao/contracts';
import { request } from './http';
import { applyToList, listChange, useCompanyEvent } from './liveEvents';

export const queuesKey = ['queues', 'list'] as const;

/** The server's order: orderQueue (empty last), then name. */
export function compareQueues(a: Queue, b: Queue): number {
  const oa = a.orderQueue ?? Number.POSITIVE_INFINITY;
  const ob = b.orderQueue ?? Number.POSITIVE_INFINITY;
  if (oa !== ob) return oa < ob ? -1 : 1;
  return a.name.localeCompare(b.name) || a.id - b.id;
}

/** `GET /queue`: the company's queues (a bare array). */
export function useQueues(enabled = true) {
  return useQuery({
    queryKey: queuesKey,
    queryFn: ({ signal }) => request<Queue[]>('/queue', { signal }),
    enabled,
  });
}

/** `company-{id}-queue` events applied to the cached list (no refetch). */
export function useQueuesLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent<ListEventPayload<Queue>>('queue', (payload) => {
    queryClient.setQueryData<Queue[]>(queuesKey, (list) => applyToList(list, listChange(payload), compareQueues));
  });
}

export function useSaveQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CreateQueueBody | UpdateQueueBody }) =>
      id === null ? request<Queue>('/queue', { method: 'POST', body }) : request<Queue>(`/queue/${id}`, { method: 'PUT', body }),
    onSuccess: (queue) => {
      queryClient.setQueryData<Queue[]>(queuesKey, (list) => applyToList(list, { kind: 'upsert', record: queue }, compareQueues));
    },
  });
}

export function useDeleteQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/queue/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => {
      queryClient.setQueryData<Queue[]>(queuesKey, (list) => applyToList(list, { kind: 'delete', id }));
    },
  });
}
