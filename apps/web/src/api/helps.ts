import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateHelpBody, Help, ListEventPayload, UpdateHelpBody } from '@balcao/contracts';
import { request, requestOr } from './http';
import { applyToList, listChange, useCompanyEvent } from './liveEvents';

export const helpsListKey = ['helps', 'list'] as const;
const byTitle = (a: Help, b: Help) => a.title.localeCompare(b.title) || a.id - b.id;

/**
 * GET /helps/list, kept current by `company-{id}-help` events: the menu shows
 * /helps only while at least one help exists.
 */
export function useHelpsList(enabled: boolean) {
  const queryClient = useQueryClient();
  useCompanyEvent<ListEventPayload<Help>>(
    'help',
    (payload) => queryClient.setQueryData<Help[]>(helpsListKey, (list) => applyToList(list, listChange(payload), byTitle)),
    enabled,
  );
  return useQuery({
    queryKey: helpsListKey,
    queryFn: async () => {
      const data = await requestOr<unknown>('/helps/list', []);
      return Array.isArray(data) ? (data as Help[]) : [];
    },
    enabled,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

export function useSaveHelp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CreateHelpBody | UpdateHelpBody }) =>
      id === null ? request<Help>('/helps', { method: 'POST', body }) : request<Help>(`/helps/${id}`, { method: 'PUT', body }),
    onSuccess: (help) => queryClient.setQueryData<Help[]>(helpsListKey, (list) => applyToList(list, { kind: 'upsert', record: help }, byTitle)),
  });
}

export function useDeleteHelp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/helps/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => queryClient.setQueryData<Help[]>(helpsListKey, (list) => applyToList(list, { kind: 'delete', id })),
  });
}
