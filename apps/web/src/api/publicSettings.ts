import { useQuery, type QueryClient } from '@tanstack/react-query';
import { PUBLIC_SETTING_KEYS, type PublicSettingKey, type PublicSettings } from '@balcao/contracts';
import { request } from './http';

export const publicSettingsKey = ['public-settings'] as const;

const NONE = Object.fromEntries(PUBLIC_SETTING_KEYS.map((k) => [k, null])) as PublicSettings;

/** GET /public-settings: every public value in one call (the login page's branding); all null when unreadable (defaults apply). */
async function fetchPublicSettings(): Promise<PublicSettings> {
  try {
    return { ...NONE, ...(await request<Partial<PublicSettings>>('/public-settings', { auth: false })) };
  } catch (err) {
    console.warn('public settings could not be read', err);
    return NONE;
  }
}

/**
 * One public setting, from the one shared query: null when unset. A page without a session opens no
 * socket: it reads the branding again on reload, or when the visitor comes back to the tab after five
 * minutes; signed-in pages hear changes on the company socket (`useSettingsLive`).
 */
export function usePublicSetting(key: PublicSettingKey) {
  return useQuery({
    queryKey: publicSettingsKey,
    queryFn: fetchPublicSettings,
    staleTime: 5 * 60_000,
    select: (all: PublicSettings) => all[key] || null,
  });
}

/** A new value of one public setting, applied to the cached answer (no refetch). */
export function storePublicSetting(queryClient: QueryClient, key: PublicSettingKey, value: string | null): void {
  queryClient.setQueryData<PublicSettings>(publicSettingsKey, (all) => (all ? { ...all, [key]: value || null } : all));
}
