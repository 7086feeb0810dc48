import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CONNECTIONS_ALERT_DELAY_MS, companyEvent } from '@balcao/contracts';
import type { Socket } from 'socket.io-client';
import { requestOr } from './http';

export interface ConnectionSummary {
  id: number;
  name: string;
  status: string;
  channel?: string;
}

export const whatsappListKey = ['whatsapp', 'list'] as const;

/**
 * GET /whatsapp/?session=0, loaded 2 s after the shell appears (spec 1 §9)
 * and refreshed by the connection socket events.
 */
export function useConnectionsForAlert(enabled: boolean, socket: Socket | null, companyId: number) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setReady(true), CONNECTIONS_ALERT_DELAY_MS);
    return () => clearTimeout(t);
  }, []);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!socket || !enabled) return;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: whatsappListKey });
    const events = [companyEvent(companyId, 'whatsapp'), companyEvent(companyId, 'whatsappSession')];
    for (const e of events) socket.on(e, refresh);
    return () => {
      for (const e of events) socket.off(e, refresh);
    };
  }, [socket, enabled, companyId, queryClient]);
  return useQuery({
    queryKey: whatsappListKey,
    queryFn: async () => {
      const data = await requestOr<unknown>('/whatsapp/?session=0', []);
      return Array.isArray(data) ? (data as ConnectionSummary[]) : [];
    },
    enabled: enabled && ready,
    retry: false,
  });
}
