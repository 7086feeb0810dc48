import { useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Socket } from 'socket.io-client';
import {
  PUBLIC_NAMESPACE,
  PUBLIC_SETTING_KEYS,
  SOCKET_RECONNECT_DELAY_MS,
  isPublicSettingKey,
  type PublicSettingKey,
  type PublicSettings,
  type SettingsEventPayload,
} from '@balcao/contracts';
import { apiUrl } from '../config';
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

/** One public setting, from the one shared query: null when unset. */
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

/**
 * Branding changes reach every open page at once, the login page included: the public namespace
 * carries each public setting's new value (the company socket waits for sign-in).
 */
export function usePublicSettingsLive(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let socket: Socket | undefined;
    let ended = false;
    // Loaded after the first paint: the page renders with the fetched values, and
    // socket.io-client stays out of /login's entry chunk.
    void import('socket.io-client').then(({ io }) => {
      if (ended) return;
      // Its own connection (forceNew): a shared one would carry no credentials into the
      // company namespace that the session opens later on the same address.
      socket = io(`${apiUrl()}${PUBLIC_NAMESPACE}`, { forceNew: true, reconnectionDelay: SOCKET_RECONNECT_DELAY_MS, withCredentials: true });
      socket.on('settings', (payload: SettingsEventPayload) => {
        const key = payload?.setting?.key;
        if (typeof key === 'string' && isPublicSettingKey(key)) storePublicSetting(queryClient, key, payload.setting.value);
      });
    });
    return () => {
      ended = true;
      socket?.disconnect();
    };
  }, [queryClient]);
}
