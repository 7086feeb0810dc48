import { useQuery } from '@tanstack/react-query';
import type { PublicSettingKey } from '@balcao/contracts';
import { request } from './http';

/** GET /public-settings/{key}: the bare value, or null when unset or unreadable (defaults apply). */
async function fetchPublicSetting(key: PublicSettingKey): Promise<string | null> {
  try {
    const value = await request<unknown>(`/public-settings/${key}`, { auth: false });
    return typeof value === 'string' && value !== '' ? value : null;
  } catch (err) {
    console.warn(`public setting ${key} could not be read`, err);
    return null;
  }
}

export function usePublicSetting(key: PublicSettingKey) {
  return useQuery({
    queryKey: ['public-settings', key],
    queryFn: () => fetchPublicSetting(key),
    staleTime: 5 * 60_000,
  });
}
