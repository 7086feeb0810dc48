import { useEffect, useState } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  CONNECTIONS_ALERT_DELAY_MS,
  companyEvent,
  importMessagesEvent,
  type FacebookConnectBody,
  type ImportMessagesEventPayload,
  type Whatsapp,
  type WhatsappEventPayload,
  type WhatsappFormValues,
  type WhatsappSessionEventPayload,
} from '@balcao/contracts';
import type { Socket } from 'socket.io-client';
import { request, requestOr } from './http';

/** A connection as the list carries it (`GET /whatsapp/?session=0`). */
export type Connection = Whatsapp;

export const whatsappListKey = ['whatsapp', 'list'] as const;
export const whatsappAllKey = ['whatsapp', 'all'] as const;
export const whatsappCompanyKey = (companyId: number) => ['whatsapp', 'company', companyId] as const;
export const whatsappOneKey = (id: number) => ['whatsapp', 'one', id] as const;

function asList(data: unknown): Connection[] {
  return Array.isArray(data) ? (data as Connection[]) : [];
}

// ── calls (spec 1 §7 "Connections") ──

export const whatsappApi = {
  list: async () => asList(await requestOr<unknown>('/whatsapp/?session=0', [])),
  all: async () => asList(await request<unknown>('/whatsapp/all/?session=0')),
  ofCompany: async (companyId: number) => asList(await request<unknown>(`/whatsapp/?session=0&companyId=${companyId}`)),
  one: (id: number) => request<Connection>(`/whatsapp/${id}?session=0`),
  create: (body: WhatsappFormValues) => request<Connection>('/whatsapp', { method: 'POST', body }),
  update: (id: number, body: WhatsappFormValues) => request<Connection>(`/whatsapp/${id}`, { method: 'PUT', body }),
  remove: (id: number) => request<unknown>(`/whatsapp/${id}`, { method: 'DELETE' }),
  uploadMedia: (id: number, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return request<Connection>(`/whatsapp/${id}/media-upload`, { method: 'POST', body: form });
  },
  removeMedia: (id: number) => request<Connection>(`/whatsapp/${id}/media-upload`, { method: 'DELETE' }),
  /** Try again with the stored session. */
  startSession: (id: number) => request<unknown>(`/whatsappsession/${id}`, { method: 'POST' }),
  /** Link by pairing code: the code arrives as the session's `qrcode` with status PAIRING. */
  pairByPhone: (id: number, phoneNumber: string) => request<unknown>(`/whatsappsession/${id}`, { method: 'POST', body: { phoneNumber } }),
  /** Forget the session and ask for a new QR. */
  newQr: (id: number) => request<unknown>(`/whatsappsession/${id}`, { method: 'PUT' }),
  disconnect: (id: number) => request<unknown>(`/whatsappsession/${id}`, { method: 'DELETE' }),
  restartAll: () => request<unknown>('/whatsapp-restart/', { method: 'POST' }),
  closeImported: (id: number) => request<unknown>(`/closedimported/${id}`, { method: 'POST' }),
  /** Meta's user token becomes one connection per Page (or per linked Instagram account). */
  connectFacebook: async (body: FacebookConnectBody) => asList(await request<unknown>('/facebook', { method: 'POST', body })),
};

// ── cache updates from the socket (ARCHITECTURE §6: apply, do not refetch) ──

/** `company-{id}-whatsapp`: merge an update (the event has no token: keep the cached one), drop a deletion. */
export function applyWhatsappEvent(list: Connection[] | undefined, payload: WhatsappEventPayload): Connection[] | undefined {
  if (!list) return list;
  if (payload.action === 'delete') return list.filter((c) => c.id !== payload.whatsappId);
  const incoming = payload.whatsapp;
  if (!incoming || typeof incoming.id !== 'number') return list;
  const index = list.findIndex((c) => c.id === incoming.id);
  if (index === -1) return [...list, incoming];
  const merged: Connection = { ...list[index]!, ...incoming };
  if (incoming.token === undefined && list[index]!.token !== undefined) merged.token = list[index]!.token;
  return list.map((c, i) => (i === index ? merged : c));
}

/** `company-{id}-whatsappSession`: status, QR code, retries and number of one connection. */
export function applySessionEvent(list: Connection[] | undefined, payload: WhatsappSessionEventPayload): Connection[] | undefined {
  if (!list || payload?.action !== 'update' || !payload.session) return list;
  const { id, status, qrcode, retries, number } = payload.session;
  if (!list.some((c) => c.id === id)) return list;
  return list.map((c) =>
    c.id === id
      ? {
          ...c,
          status: status ?? c.status,
          qrcode: qrcode ?? '',
          retries: retries ?? c.retries,
          number: number ?? c.number,
          updatedAt: new Date().toISOString(),
        }
      : c,
  );
}

/** Patches one connection in every cached list it appears in. */
export function patchCachedConnection(queryClient: QueryClient, id: number, patch: Partial<Connection>): void {
  queryClient.setQueryData<Connection[]>(whatsappListKey, (list) => list?.map((c) => (c.id === id ? { ...c, ...patch } : c)));
}

/** Keeps the connection list in the cache current from the two connection events. */
export function useWhatsappLiveUpdates(socket: Socket | null, companyId: number, enabled = true): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!socket || !enabled) return;
    const onWhatsapp = (payload: WhatsappEventPayload) =>
      queryClient.setQueryData<Connection[]>(whatsappListKey, (list) => applyWhatsappEvent(list, payload));
    const onSession = (payload: WhatsappSessionEventPayload) =>
      queryClient.setQueryData<Connection[]>(whatsappListKey, (list) => applySessionEvent(list, payload));
    const whatsappEvent = companyEvent(companyId, 'whatsapp');
    const sessionEvent = companyEvent(companyId, 'whatsappSession');
    socket.on(whatsappEvent, onWhatsapp);
    socket.on(sessionEvent, onSession);
    return () => {
      socket.off(whatsappEvent, onWhatsapp);
      socket.off(sessionEvent, onSession);
    };
  }, [socket, enabled, companyId, queryClient]);
}

/**
 * The socket events keep the cached list current, so another screen mounting it
 * (the menu alert, the QR dialog) does not refetch it and lose what they applied.
 */
const LIST_STALE_MS = 60_000;

/** The company's connections, live. */
export function useWhatsapps(socket: Socket | null, companyId: number, enabled = true) {
  useWhatsappLiveUpdates(socket, companyId, enabled);
  return useQuery({ queryKey: whatsappListKey, queryFn: whatsappApi.list, enabled, retry: false, staleTime: LIST_STALE_MS });
}

/**
 * The menu's connections alert: GET /whatsapp/?session=0 loaded 2 s after the
 * shell appears (spec 1 §9), kept current by the connection socket events.
 */
export function useConnectionsForAlert(enabled: boolean, socket: Socket | null, companyId: number) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setReady(true), CONNECTIONS_ALERT_DELAY_MS);
    return () => clearTimeout(t);
  }, []);
  useWhatsappLiveUpdates(socket, companyId, enabled);
  return useQuery({ queryKey: whatsappListKey, queryFn: whatsappApi.list, enabled: enabled && ready, retry: false, staleTime: LIST_STALE_MS });
}

// ── history import progress (`importMessages-{companyId}`) ──

export interface ImportProgress {
  processed: number;
  total: number;
  date: string;
  percent: number;
}

/** Progress of each connection's history import; a `refresh` ends it and reloads the list (spec 1 §4). */
export function useImportProgress(socket: Socket | null, companyId: number): Record<number, ImportProgress> {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<Record<number, ImportProgress>>({});
  useEffect(() => {
    if (!socket) return;
    const event = importMessagesEvent(companyId);
    const onImport = (payload: ImportMessagesEventPayload) => {
      if (payload?.action === 'update' && payload.status) {
        const { status } = payload;
        setProgress((p) => ({
          ...p,
          [payload.whatsappId]: { processed: status.this, total: status.all, date: status.date, percent: status.percent },
        }));
      } else if (payload?.action === 'refresh') {
        setProgress((p) => {
          const next = { ...p };
          delete next[payload.whatsappId];
          return next;
        });
        void queryClient.invalidateQueries({ queryKey: whatsappListKey });
      }
    };
    socket.on(event, onImport);
    return () => {
      socket.off(event, onImport);
    };
  }, [socket, companyId, queryClient]);
  return progress;
}

// ── lists the connection dialog picks from ──

export interface NamedRecord {
  id: number;
  name: string;
}

/** The company's AI prompts (`GET /prompt` answers all of them, no pages); an absent endpoint is an empty list. */
export function usePromptsForConnections(enabled: boolean) {
  return useQuery({
    queryKey: ['prompt', 'list'],
    queryFn: async () => {
      const data = await requestOr<unknown>('/prompt', []);
      const list = Array.isArray(data) ? data : (data as { prompts?: unknown })?.prompts;
      return Array.isArray(list) ? (list as NamedRecord[]) : [];
    },
    enabled,
    retry: false,
  });
}
