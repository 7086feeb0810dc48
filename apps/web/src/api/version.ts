import { useQuery } from '@tanstack/react-query';
import { request } from './http';

export function useServerVersion() {
  return useQuery({
    queryKey: ['version'],
    queryFn: async () => {
      const data = await request<{ version?: unknown }>('/version', { auth: false });
      return typeof data?.version === 'string' ? data.version : null;
    },
    staleTime: 5 * 60_000,
  });
}

export function postVersion(version: string): Promise<unknown> {
  return request('/version', { method: 'POST', body: { version } });
}
