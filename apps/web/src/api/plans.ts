import { useQuery } from '@tanstack/react-query';
import type { Plan } from '@balcao/contracts';
import { request } from './http';

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
