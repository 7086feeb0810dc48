import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Socket } from 'socket.io-client';
import { PUBLIC_NAMESPACE, SOCKET_RECONNECT_DELAY_MS, isPublicSettingKey, type PublicSettingKey, type SettingsEventPayload } from '@balcao/contracts';
import { apiUrl } from '../config';
import { request } from './http';

export const publicSettingKey = (key: PublicSettingKey) => ['public-settings', key] as const;

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
    queryKey: publicSettingKey(key),
    queryFn: () => fetchPublicSetting(key),
    staleTime: 5 * 60_000,
  });
}

/**
 * Branding changes reach every open page at once, the login page included:
 * the public namespace carries each public setting's new value.
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
        if (typeof key === 'string' && isPublicSettingKey(key)) {
          queryClient.setQueryData(publicSettingKey(key), payload.setting.value || null);
        }
      });
    });
    return () => {
      ended = true;
      socket?.disconnect();
    };
  }, [queryClient]);
}
