import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatePlanBody, ListEventPayload, Plan, UpdatePlanBody } from '@balcao/contracts';
import { request } from './http';
import { applyToList, listChange, useCompanyEvent } from './liveEvents';

/** GET /plans/list (public): the plans offered on the signup form. */
export function usePublicPlans() {
  return useQuery({
    queryKey: ['plans', 'list'],
    queryFn: async () => {
      const data = await request<unknown>('/plans/list', { auth: false });
      return Array.isArray(data) ? (data as Plan[]) : [];
    },
    retry: false,
  });
}

export const allPlansKey = ['plans', 'all'] as const;
const byAmount = (a: Plan, b: Plan) => Number(a.amount) - Number(b.amount) || a.id - b.id;

/** `GET /plans/all` (super user): every plan, public or not. */
export function useAllPlans(enabled = true) {
  return useQuery({
    queryKey: allPlansKey,
    queryFn: ({ signal }) => request<Plan[]>('/plans/all', { signal }),
    enabled,
  });
}

/** `company-{id}-plan` events (super users only) applied to the cached list. */
export function usePlansLive(enabled: boolean): void {
  const queryClient = useQueryClient();
  useCompanyEvent<ListEventPayload<Plan>>(
    'plan',
    (payload) => queryClient.setQueryData<Plan[]>(allPlansKey, (list) => applyToList(list, listChange(payload), byAmount)),
    enabled,
  );
}

export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CreatePlanBody | UpdatePlanBody }) =>
      id === null ? request<Plan>('/plans', { method: 'POST', body }) : request<Plan>(`/plans/${id}`, { method: 'PUT', body }),
    onSuccess: (plan) => {
      queryClient.setQueryData<Plan[]>(allPlansKey, (list) => applyToList(list, { kind: 'upsert', record: plan }, byAmount));
      void queryClient.invalidateQueries({ queryKey: ['plans', 'list'] });
    },
  });
}

export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/plans/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => {
      queryClient.setQueryData<Plan[]>(allPlansKey, (list) => applyToList(list, { kind: 'delete', id }));
      void queryClient.invalidateQueries({ queryKey: ['plans', 'list'] });
    },
  });
}
