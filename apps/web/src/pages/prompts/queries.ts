import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatePromptBody, ListEventPayload, Prompt } from '@balcao/contracts';
import { request } from '../../api/http';
import { applyToList, listChange, useCompanyEvent } from '../../api/liveEvents';

const promptsKey = ['prompts', 'list'] as const;
const byName = (a: Prompt, b: Prompt) => a.name.localeCompare(b.name) || a.id - b.id;

/** `GET /prompt` → `{ prompts }`: the company's prompts (a short list, no pages). */
export function usePrompts() {
  return useQuery({
    queryKey: promptsKey,
    queryFn: async ({ signal }) => (await request<{ prompts: Prompt[] }>('/prompt', { signal })).prompts,
  });
}

/** `company-{companyId}-prompt` applied to the cached list. */
export function usePromptsLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent<ListEventPayload<Prompt>>('prompt', (payload) => {
    queryClient.setQueryData<Prompt[]>(promptsKey, (list) => applyToList(list, listChange(payload), byName));
  });
}

export function useSavePrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CreatePromptBody }) =>
      id === null ? request<Prompt>('/prompt', { method: 'POST', body }) : request<Prompt>(`/prompt/${id}`, { method: 'PUT', body }),
    onSuccess: (prompt) => queryClient.setQueryData<Prompt[]>(promptsKey, (list) => applyToList(list, { kind: 'upsert', record: prompt }, byName)),
  });
}

/** Answers the server's `{ message }`, which the page shows as an info toast (spec 3 §2). */
export function useDeletePrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request<{ message: string }>(`/prompt/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => queryClient.setQueryData<Prompt[]>(promptsKey, (list) => applyToList(list, { kind: 'delete', id })),
  });
}
