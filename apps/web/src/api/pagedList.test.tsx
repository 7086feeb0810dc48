import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { companyEvent, SEARCH_DEBOUNCE_MS, type ListEventPayload } from '@balcao/contracts';

interface Item {
  id: number;
  name: string;
}
interface ItemsPage {
  items: Item[];
  count: number;
  hasMore: boolean;
}

// The server: pages of two items out of five, filtered by the search as the API does.
const ALL: Item[] = [1, 2, 3, 4, 5].map((id) => ({ id, name: `item ${id}` }));
const request = vi.fn(async (path: string): Promise<ItemsPage> => {
  const url = new URL(path, 'http://api');
  const search = url.searchParams.get('searchParam') ?? '';
  const page = Number(url.searchParams.get('pageNumber'));
  const found = ALL.filter((i) => i.name.includes(search));
  return { items: found.slice((page - 1) * 2, page * 2), count: found.length, hasMore: page * 2 < found.length };
});
vi.mock('./http', () => ({ request: (path: string) => request(path) }));

// The session's socket, as far as the hook uses it: on/off, and a way to play the server's emit.
const listeners = new Map<string, (payload: unknown) => void>();
const socket = {
  on: (event: string, fn: (payload: unknown) => void) => listeners.set(event, fn),
  off: (event: string) => listeners.delete(event),
};
vi.mock('./session', () => ({ useSession: () => ({ socket, user: { companyId: 3 } }) }));
/** Plays the server's emit, then lets the query cache notify the hook (it batches on a timer). */
const emit = (payload: ListEventPayload<Item>) =>
  act(async () => {
    listeners.get(companyEvent(3, 'queue'))?.(payload);
    await new Promise((r) => setTimeout(r, 20));
  });

const { usePagedList } = await import('./pagedList');

const items = {
  key: ['items', 'page'],
  path: (search: string, page: number) => `/items?searchParam=${encodeURIComponent(search)}&pageNumber=${page}`,
  records: { get: (p: ItemsPage) => p.items, set: (p: ItemsPage, list: Item[]) => ({ ...p, items: list }) },
  matches: (item: Item, search: string) => item.name.includes(search),
  event: 'queue' as const,
  change: (payload: ListEventPayload<Item>) =>
    payload.action === 'delete' ? ({ kind: 'delete', id: payload.id } as const) : ({ kind: 'upsert', record: payload.record } as const),
};

function renderList() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(() => usePagedList(items), { wrapper });
}
const ids = (result: { current: { records: Item[] } }) => result.current.records.map((i) => i.id);
const searches = () => request.mock.calls.map(([path]) => new URL(path, 'http://api').searchParams.get('searchParam'));

beforeEach(() => request.mockClear());
afterEach(cleanup);

describe('usePagedList', { timeout: 20_000 }, () => {
  it('loads the first page, then each next page on loadMore until hasMore is false', async () => {
    const { result } = renderList();
    expect(result.current.state.loading).toBe(true);
    await waitFor(() => expect(ids(result)).toEqual([1, 2]));
    act(() => result.current.loadMore());
    await waitFor(() => expect(ids(result)).toEqual([1, 2, 3, 4]));
    act(() => result.current.loadMore());
    await waitFor(() => expect(ids(result)).toEqual([1, 2, 3, 4, 5]));
    act(() => result.current.loadMore());
    await new Promise((r) => setTimeout(r, 50));
    expect(request.mock.calls.map(([path]) => path)).toEqual([
      '/items?searchParam=&pageNumber=1',
      '/items?searchParam=&pageNumber=2',
      '/items?searchParam=&pageNumber=3',
    ]);
    expect(result.current.state).toMatchObject({ loading: false, empty: false, error: false, loadingMore: false });
  });

  it('asks the server only once the search has stopped changing for 500 ms', async () => {
    const { result } = renderList();
    await waitFor(() => expect(ids(result)).toEqual([1, 2]));
    act(() => result.current.setSearch('i'));
    act(() => result.current.setSearch('item'));
    act(() => result.current.setSearch('item 4'));
    await new Promise((r) => setTimeout(r, SEARCH_DEBOUNCE_MS - 200));
    expect(searches()).toEqual(['']);
    await waitFor(() => expect(ids(result)).toEqual([4]));
    expect(searches()).toEqual(['', 'item 4']);
  });

  it('applies the live event to the loaded pages: inserts on top, replaces in place, removes', async () => {
    const { result } = renderList();
    await waitFor(() => expect(ids(result)).toEqual([1, 2]));
    await emit({ action: 'create', record: { id: 9, name: 'item 9' } });
    expect(ids(result)).toEqual([9, 1, 2]);
    await emit({ action: 'update', record: { id: 1, name: 'item 1 renamed' } });
    expect(result.current.records.map((i) => i.name)).toEqual(['item 9', 'item 1 renamed', 'item 2']);
    await emit({ action: 'delete', id: 2 });
    expect(ids(result)).toEqual([9, 1]);
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('keeps a live record out of a search it does not match', async () => {
    const { result } = renderList();
    act(() => result.current.setSearch('item 3'));
    await waitFor(() => expect(ids(result)).toEqual([3]));
    await emit({ action: 'create', record: { id: 9, name: 'other' } });
    await emit({ action: 'update', record: { id: 3, name: 'renamed' } });
    expect(ids(result)).toEqual([]);
    expect(result.current.state.empty).toBe(true);
  });
});
