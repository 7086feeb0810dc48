import { useCallback, useState } from 'react';
import { useInfiniteQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { SEARCH_DEBOUNCE_MS } from '@balcao/contracts';
import { useDebouncedValue } from '../components/form';
import { request } from './http';
import { applyToPages, useCompanyEvent, type LiveEventName } from './liveEvents';

export type RecordChange<T> = { kind: 'upsert'; record: T } | { kind: 'delete'; id: number };

/** One searchable, paged list of the API (spec 3 §4 "Lists in general"): its endpoint, page shape and live event. */
export interface PagedList<P extends { hasMore: boolean }, T extends { id: number }, E> {
  /** Cache key of the list; each search is cached under it plus the search text. */
  key: readonly unknown[];
  /** The endpoint of one page, e.g. `/users/?searchParam=…&pageNumber=…`. */
  path: (search: string, pageNumber: number) => string;
  records: { get: (page: P) => T[]; set: (page: P, list: T[]) => P };
  /** Whether a record belongs to the list searched for `search`, as the server filters it. */
  matches: (record: T, search: string) => boolean;
  /** The company event that carries the list's creates, updates and deletes. */
  event: LiveEventName;
  change: (payload: E) => RecordChange<T>;
  /** Other caches the same change updates (the single record's). */
  alsoStore?: (queryClient: QueryClient, change: RecordChange<T>) => void;
}

/** A paged list that selects pick from: also the endpoint of one record (a chosen one outside the loaded pages). */
export type RecordSource<P extends { hasMore: boolean }, T extends { id: number }, E> = PagedList<P, T, E> & { one: (id: number) => string };

/** Applies a change to every cached search of the list: replaced where it is, removed, or inserted on top where it matches. */
export function storeRecordChange<P extends { hasMore: boolean }, T extends { id: number }, E>(
  queryClient: QueryClient,
  list: PagedList<P, T, E>,
  change: RecordChange<T>,
): void {
  for (const [key, data] of queryClient.getQueriesData<InfiniteData<P>>({ queryKey: list.key })) {
    const search = typeof key[list.key.length] === 'string' ? String(key[list.key.length]) : '';
    const paged = change.kind === 'delete' ? change : { ...change, matches: list.matches(change.record, search) };
    queryClient.setQueryData(key, applyToPages(data, list.records, paged));
  }
  list.alsoStore?.(queryClient, change);
}

/**
 * A list screen's data: the search (debounced 500 ms before it reaches the
 * server), the pages loaded so far, `loadMore` for the next page (the list
 * page calls it within 100 px of the bottom), and the live event applied to
 * the cache without a refetch.
 */
export function usePagedList<P extends { hasMore: boolean }, T extends { id: number }, E>(list: PagedList<P, T, E>, enabled = true) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const query = useInfiniteQuery({
    queryKey: [...list.key, debounced],
    queryFn: ({ pageParam, signal }) => request<P>(list.path(debounced, pageParam), { signal }),
    initialPageParam: 1,
    getNextPageParam: (last: P, pages: P[]) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
  useCompanyEvent<E>(list.event, (payload) => storeRecordChange(queryClient, list, list.change(payload)), enabled);

  const records = query.data?.pages.flatMap(list.records.get) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return {
    search,
    setSearch,
    records,
    loadMore,
    /** The list's states, as `TableStateRow` and `ListTable` take them. */
    state: {
      loading: query.isPending && enabled,
      error: query.isError && records.length === 0,
      empty: !query.isPending && !query.isError && records.length === 0,
      onRetry: () => void query.refetch(),
      loadingMore: isFetchingNextPage,
    },
  };
}
