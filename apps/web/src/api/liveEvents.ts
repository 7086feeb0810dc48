import { useEffect, useRef } from 'react';
import type { InfiniteData } from '@tanstack/react-query';
import { companyEvent, type CompanyEventName, type ListEventPayload } from '@balcao/contracts';
import { useSession } from './session';

/** A `company-{id}-{name}` event, or the full name of one the spec spells otherwise (`company{id}-tag`). */
export type LiveEventName = CompanyEventName | ((companyId: number) => string);

/**
 * Listens to `company-{id}-{name}` on the session's socket while mounted.
 * The handler may change between renders without re-subscribing.
 */
export function useCompanyEvent<P>(name: LiveEventName, handler: (payload: P) => void, enabled = true): void {
  const { socket, user } = useSession();
  const companyId = user?.companyId;
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!socket || companyId === undefined || !enabled) return;
    const event = typeof name === 'function' ? name(companyId) : companyEvent(companyId, name);
    const listener = (payload: P) => ref.current(payload);
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, companyId, name, enabled]);
}

interface WithId {
  id: number;
}

/** A list after a create/update (insert or replace) or a delete (spec 3 §4 "Lists in general"). */
export function applyToList<T extends WithId>(
  list: readonly T[] | undefined,
  change: { kind: 'upsert'; record: T } | { kind: 'delete'; id: number },
  order?: (a: T, b: T) => number,
): T[] | undefined {
  if (!list) return list;
  if (change.kind === 'delete') return list.filter((r) => r.id !== change.id);
  const exists = list.some((r) => r.id === change.record.id);
  const next = exists ? list.map((r) => (r.id === change.record.id ? change.record : r)) : [...list, change.record];
  return order ? [...next].sort(order) : next;
}

export function listChange<T extends WithId>(payload: ListEventPayload<T>): { kind: 'upsert'; record: T } | { kind: 'delete'; id: number } {
  return payload.action === 'delete' ? { kind: 'delete', id: payload.id } : { kind: 'upsert', record: payload.record };
}

/**
 * A paged list in the cache after a change: an update replaces the record
 * where it is, a delete removes it, a create goes to the top of the first
 * page when it matches the list's search (`matches`).
 */
export function applyToPages<P, T extends WithId>(
  data: InfiniteData<P> | undefined,
  records: { get: (page: P) => T[]; set: (page: P, list: T[]) => P },
  change: { kind: 'upsert'; record: T; matches: boolean } | { kind: 'delete'; id: number },
): InfiniteData<P> | undefined {
  if (!data) return data;
  if (change.kind === 'delete') {
    return { ...data, pages: data.pages.map((p) => records.set(p, records.get(p).filter((r) => r.id !== change.id))) };
  }
  const present = data.pages.some((p) => records.get(p).some((r) => r.id === change.record.id));
  if (present) {
    const pages = data.pages.map((p) => {
      const list = records.get(p);
      if (!change.matches) return records.set(p, list.filter((r) => r.id !== change.record.id));
      return records.set(
        p,
        // Merged: keeps what only the page carries (a tag's counts) when the event's record lacks it.
        list.map((r) => (r.id === change.record.id ? { ...r, ...change.record } : r)),
      );
    });
    return { ...data, pages };
  }
  if (!change.matches || data.pages.length === 0) return data;
  const [first, ...rest] = data.pages;
  if (first === undefined) return data;
  return { ...data, pages: [records.set(first, [change.record, ...records.get(first)]), ...rest] };
}
