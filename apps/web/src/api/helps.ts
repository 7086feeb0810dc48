import { useQuery } from '@tanstack/react-query';
import { requestOr } from './http';

export interface HelpItem {
  id: number;
  title: string;
  description: string | null;
  video: string | null;
}

/** GET /helps/list; until the helps issue lands the endpoint may not exist: that means no help items. */
export function useHelpsList(enabled: boolean) {
  return useQuery({
    queryKey: ['helps', 'list'],
    queryFn: async () => {
      const data = await requestOr<unknown>('/helps/list', []);
      return Array.isArray(data) ? (data as HelpItem[]) : [];
    },
    enabled,
    retry: false,
    staleTime: 5 * 60_000,
  });
}
