import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateQueueIntegrationBody, ListEventPayload, QueueIntegration, QueueIntegrationPage } from '@balcao/contracts';
import { request } from './http';
import { listChange } from './liveEvents';
import { storeRecordChange, type RecordSource } from './pagedList';

/** `GET /queueIntegration/` (searchParam, pageNumber) and `company-{id}-queueIntegration`: the /queue-integration list and the selects of integrations. */
export const queueIntegrationPages: RecordSource<QueueIntegrationPage, QueueIntegration, ListEventPayload<QueueIntegration>> = {
  key: ['queueIntegrations', 'page'],
  path: (search, page) => `/queueIntegration/?searchParam=${encodeURIComponent(search)}&pageNumber=${page}`,
  one: (id) => `/queueIntegration/${id}`,
  records: { get: (p) => p.queueIntegrations, set: (p, queueIntegrations) => ({ ...p, queueIntegrations }) },
  matches: (record, search) => record.name.toLowerCase().includes(search.trim().toLowerCase()),
  event: 'queueIntegration',
  change: listChange,
};

export function useSaveQueueIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CreateQueueIntegrationBody }) =>
      id === null
        ? request<QueueIntegration>('/queueIntegration', { method: 'POST', body })
        : request<QueueIntegration>(`/queueIntegration/${id}`, { method: 'PUT', body }),
    onSuccess: (record) => storeRecordChange(queryClient, queueIntegrationPages, { kind: 'upsert', record }),
  });
}

export function useDeleteQueueIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/queueIntegration/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => storeRecordChange(queryClient, queueIntegrationPages, { kind: 'delete', id }),
  });
}

/** `POST /queueIntegration/testSession`: one detectIntent with the dialog's settings. */
export function useTestQueueIntegration() {
  return useMutation({
    mutationFn: (body: { projectName: string; jsonContent: string; language: string; id?: number }) =>
      request<{ message: string; replies: string[] }>('/queueIntegration/testSession', { method: 'POST', body }),
  });
}
