import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateWebhookBody, UpdateWebhookBody, WebhookDeliveriesPage, WebhookDelivery, WebhookEndpoint } from '@balcao/contracts';
import { request } from '../../api/http';

const keys = {
  all: ['webhooks'] as const,
  deliveries: (id: number) => ['webhooks', 'deliveries', id] as const,
};
/** While the deliveries are on screen they are re-read this often (a retry changes a row with no live event). */
const DELIVERIES_REFRESH_MS = 3000;

/** `GET /webhooks`: the company's endpoints (few; no paging). */
export function useWebhooks() {
  return useQuery({ queryKey: keys.all, queryFn: ({ signal }) => request<WebhookEndpoint[]>('/webhooks', { signal }) });
}

function useStoreEndpoint() {
  const queryClient = useQueryClient();
  return (saved: WebhookEndpoint) =>
    queryClient.setQueryData<WebhookEndpoint[]>(keys.all, (list) => (list ? (list.some((e) => e.id === saved.id) ? list.map((e) => (e.id === saved.id ? saved : e)) : [...list, saved]) : list));
}

export function useSaveWebhook() {
  const store = useStoreEndpoint();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CreateWebhookBody | UpdateWebhookBody }) =>
      id === null ? request<WebhookEndpoint>('/webhooks', { method: 'POST', body }) : request<WebhookEndpoint>(`/webhooks/${id}`, { method: 'PUT', body }),
    onSuccess: store,
  });
}

export function useRotateSecret() {
  const store = useStoreEndpoint();
  return useMutation({ mutationFn: (id: number) => request<WebhookEndpoint>(`/webhooks/${id}/secret`, { method: 'POST' }), onSuccess: store });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/webhooks/${id}`, { method: 'DELETE' }),
    onSuccess: (_d, id) => queryClient.setQueryData<WebhookEndpoint[]>(keys.all, (list) => list?.filter((e) => e.id !== id)),
  });
}

/** `POST /webhooks/{id}/test`: a `webhook.ping` delivery, listed at once. */
export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request<WebhookDelivery>(`/webhooks/${id}/test`, { method: 'POST' }),
    onSuccess: (_d, id) => void queryClient.invalidateQueries({ queryKey: keys.deliveries(id) }),
  });
}

/** `GET /webhooks/{id}/deliveries`: the latest page, newest first. */
export function useDeliveries(id: number) {
  return useQuery({
    queryKey: keys.deliveries(id),
    queryFn: ({ signal }) => request<WebhookDeliveriesPage>(`/webhooks/${id}/deliveries?pageNumber=1`, { signal }),
    refetchInterval: DELIVERIES_REFRESH_MS,
  });
}
