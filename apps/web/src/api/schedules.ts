import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Contact, ListEventPayload, Schedule, SchedulePage } from '@balcao/contracts';
import { request } from './http';
import { useSession } from './session';

/** The calendar's visible range and search box. */
export interface ScheduleRange {
  from: Date;
  to: Date;
  search: string;
}

const rangeKey = (r: ScheduleRange) => ['schedules', 'range', r.from.toISOString(), r.to.toISOString(), r.search] as const;
const RANGE_PREFIX = ['schedules', 'range'] as const;

/** Every schedule with `sendAt` in the range (`GET /schedules`, page after page). */
export function useSchedulesInRange(range: ScheduleRange) {
  return useQuery({
    queryKey: rangeKey(range),
    queryFn: async ({ signal }) => {
      const all: Schedule[] = [];
      for (let page = 1; ; page++) {
        const q = new URLSearchParams({ searchParam: range.search, pageNumber: String(page), dateFrom: range.from.toISOString(), dateTo: range.to.toISOString() });
        const data = await request<SchedulePage>(`/schedules?${q.toString()}`, { signal });
        all.push(...data.schedules);
        if (!data.hasMore || data.schedules.length === 0) return all;
      }
    },
    placeholderData: (previous) => previous,
  });
}

function inRange(key: readonly unknown[], s: Schedule): boolean {
  const [, , from, to, search] = key as readonly [string, string, string, string, string];
  const at = Date.parse(s.sendAt);
  const text = `${s.body} ${s.contact?.name ?? ''}`.toLowerCase();
  return at >= Date.parse(from) && at < Date.parse(to) && text.includes(search.toLowerCase());
}

/** A created, changed or deleted schedule in every cached range (no refetch). */
function storeChange(queryClient: QueryClient, change: { schedule: Schedule } | { id: number }): void {
  for (const [key, list] of queryClient.getQueriesData<Schedule[]>({ queryKey: RANGE_PREFIX })) {
    if (!list) continue;
    const id = 'id' in change ? change.id : change.schedule.id;
    const others = list.filter((s) => s.id !== id);
    const keep = 'schedule' in change && inRange(key, change.schedule) ? [...others, change.schedule] : others;
    queryClient.setQueryData(key, keep);
  }
}

/** `company{id}-schedule` (no dash after "company") applied to the cached ranges. */
export function useSchedulesLive(): void {
  const { socket, user } = useSession();
  const queryClient = useQueryClient();
  const companyId = user?.companyId;
  useEffect(() => {
    if (!socket || companyId === undefined) return;
    const event = `company${companyId}-schedule`;
    const listener = (p: ListEventPayload<Schedule>) => storeChange(queryClient, p.action === 'delete' ? { id: p.id } : { schedule: p.record });
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, companyId, queryClient]);
}

export interface SaveScheduleInput {
  id: number | null;
  body: Record<string, unknown>;
  /** A new attachment to upload after saving; null removes the current one; undefined leaves it. */
  media?: File | null;
}

/** POST or PUT, then the attachment (`/schedules/{id}/media-upload`). */
export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body, media }: SaveScheduleInput) => {
      let saved = await request<Schedule>(id === null ? '/schedules' : `/schedules/${id}`, { method: id === null ? 'POST' : 'PUT', body });
      if (media) {
        const form = new FormData();
        form.append('typeArch', 'schedule');
        form.append('file', media, media.name);
        saved = await request<Schedule>(`/schedules/${saved.id}/media-upload`, { method: 'POST', body: form });
      } else if (media === null && saved.mediaPath) {
        saved = await request<Schedule>(`/schedules/${saved.id}/media-upload`, { method: 'DELETE' });
      }
      return saved;
    },
    onSuccess: (schedule) => storeChange(queryClient, { schedule }),
  });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/schedules/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => storeChange(queryClient, { id }),
  });
}

export type ContactChoice = Pick<Contact, 'id' | 'name'> & Partial<Pick<Contact, 'number'>>;

/** `GET /contacts/list?name=`: the contact picker of the schedule dialog. */
export function useContactChoices(name: string, enabled: boolean) {
  return useQuery({
    queryKey: ['contacts', 'choices', name],
    queryFn: ({ signal }) => request<Contact[]>(`/contacts/list?name=${encodeURIComponent(name)}`, { signal }),
    enabled,
    staleTime: 30_000,
  });
}

/** One contact's name for `?contactId=` (`GET /contacts/{id}`). */
export function useContactChoice(id: number | null) {
  return useQuery({
    queryKey: ['contacts', 'choice', id],
    queryFn: ({ signal }) => request<Contact>(`/contacts/${id}`, { signal }),
    enabled: id !== null,
  });
}

/** The company's users for the "ticket user" select (first page of `GET /users`). */
export function useUserChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['users', 'choices'],
    queryFn: ({ signal }) => request<{ users: { id: number; name: string }[] }>('/users?pageNumber=1', { signal }).then((d) => d.users),
    enabled,
    staleTime: 30_000,
  });
}
