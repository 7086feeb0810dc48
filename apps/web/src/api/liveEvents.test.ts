import { describe, expect, it } from 'vitest';
import type { InfiniteData } from '@tanstack/react-query';
import { applyToList, applyToPages, listChange } from './liveEvents';

interface Row {
  id: number;
  name: string;
}
interface Page {
  rows: Row[];
  hasMore: boolean;
}
const records = { get: (p: Page) => p.rows, set: (p: Page, rows: Row[]) => ({ ...p, rows }) };
const data = (...pages: Row[][]): InfiniteData<Page> => ({ pages: pages.map((rows) => ({ rows, hasMore: false })), pageParams: pages.map((_p, i) => i + 1) });

describe('applyToList', () => {
  const list: Row[] = [
    { id: 1, name: 'b' },
    { id: 2, name: 'c' },
  ];
  it('replaces an updated record in place and appends a new one in order', () => {
    expect(applyToList(list, { kind: 'upsert', record: { id: 2, name: 'z' } })).toEqual([list[0], { id: 2, name: 'z' }]);
    const byName = (a: Row, b: Row) => a.name.localeCompare(b.name);
    expect(applyToList(list, { kind: 'upsert', record: { id: 3, name: 'a' } }, byName)?.map((r) => r.id)).toEqual([3, 1, 2]);
  });
  it('removes a deleted record and leaves an unloaded list alone', () => {
    expect(applyToList(list, { kind: 'delete', id: 1 })).toEqual([list[1]]);
    expect(applyToList(undefined, { kind: 'delete', id: 1 })).toBeUndefined();
  });
  it('reads the create/update/delete payloads of the list events', () => {
    expect(listChange({ action: 'delete', id: 4 })).toEqual({ kind: 'delete', id: 4 });
    expect(listChange({ action: 'create', record: { id: 4, name: 'x' } })).toEqual({ kind: 'upsert', record: { id: 4, name: 'x' } });
  });
});

describe('applyToPages', () => {
  it('puts a matching new record on top of the first page', () => {
    const next = applyToPages(data([{ id: 1, name: 'a' }], [{ id: 2, name: 'b' }]), records, { kind: 'upsert', record: { id: 3, name: 'c' }, matches: true });
    expect(next?.pages.map((p) => p.rows.map((r) => r.id))).toEqual([[3, 1], [2]]);
  });
  it('ignores a new record outside the search', () => {
    const before = data([{ id: 1, name: 'a' }]);
    expect(applyToPages(before, records, { kind: 'upsert', record: { id: 3, name: 'c' }, matches: false })).toBe(before);
  });
  it('replaces an updated record where it is, and drops it when it no longer matches', () => {
    const before = data([{ id: 1, name: 'a' }], [{ id: 2, name: 'b' }]);
    expect(applyToPages(before, records, { kind: 'upsert', record: { id: 2, name: 'B' }, matches: true })?.pages[1]?.rows).toEqual([{ id: 2, name: 'B' }]);
    expect(applyToPages(before, records, { kind: 'upsert', record: { id: 2, name: 'x' }, matches: false })?.pages[1]?.rows).toEqual([]);
  });
  it('removes a deleted record from every page', () => {
    const next = applyToPages(data([{ id: 1, name: 'a' }], [{ id: 2, name: 'b' }]), records, { kind: 'delete', id: 1 });
    expect(next?.pages.map((p) => p.rows.length)).toEqual([0, 1]);
  });
});
