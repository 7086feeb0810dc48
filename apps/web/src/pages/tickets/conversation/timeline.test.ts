import { describe, expect, it } from 'vitest';
import { appendMessage, buildTimeline, dayLabel, mergePages, replaceMessage, type MessagesPage } from './timeline';
import { fakeMessage } from './testMessages';

const page = (ids: number[], hasMore = true): MessagesPage => ({
  messages: ids.map((id) => fakeMessage({ id })),
  count: 100,
  hasMore,
});

describe('mergePages', () => {
  it('puts older pages (N+1) before newer ones, each oldest → newest', () => {
    const merged = mergePages([page([5, 6]), page([3, 4]), page([1, 2], false)]);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('drops a message that appears on two pages (a live message shifted the pages)', () => {
    const merged = mergePages([page([4, 5]), page([3, 4])]);
    expect(merged.map((m) => m.id)).toEqual([3, 4, 5]);
  });
});

describe('live changes', () => {
  const data = { pages: [page([3, 4]), page([1, 2])], pageParams: [1, 2] };

  it('appends a created message to the newest page', () => {
    const next = appendMessage(data, fakeMessage({ id: 7 }));
    expect(mergePages(next!.pages).map((m) => m.id)).toEqual([1, 2, 3, 4, 7]);
  });

  it('does not append the same message twice', () => {
    const next = appendMessage(data, fakeMessage({ id: 4, body: 'again' }));
    expect(mergePages(next!.pages).map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(next!.pages[0]!.messages[1]!.body).toBe('again');
  });

  it('replaces an updated message where it is (edit, delete, ack)', () => {
    const next = replaceMessage(data, fakeMessage({ id: 1, isDeleted: true, ack: 3 }));
    const m = mergePages(next!.pages)[0]!;
    expect(m).toMatchObject({ id: 1, isDeleted: true, ack: 3 });
  });

  it('never lowers an ack: a late send answer (ack 0) after the socket ack update keeps the tick', () => {
    const acked = replaceMessage(data, fakeMessage({ id: 1, ack: 1 }));
    const late = replaceMessage(acked, fakeMessage({ id: 1, ack: 0, body: 'late answer' }));
    expect(mergePages(late!.pages)[0]).toMatchObject({ id: 1, ack: 1, body: 'late answer' });
  });

  it('leaves the data alone for a message it does not hold', () => {
    expect(replaceMessage(data, fakeMessage({ id: 99 }))).toBe(data);
  });
});

describe('buildTimeline', () => {
  it('opens each day with a separator and marks the first of each side run', () => {
    const items = buildTimeline([
      fakeMessage({ id: 1, createdAt: new Date(2026, 10, 19, 10).toISOString() }),
      fakeMessage({ id: 2, createdAt: new Date(2026, 10, 19, 11).toISOString() }),
      fakeMessage({ id: 3, fromMe: true, createdAt: new Date(2026, 10, 19, 12).toISOString() }),
      fakeMessage({ id: 4, fromMe: true, createdAt: new Date(2026, 10, 20, 9).toISOString() }),
    ]);
    expect(items.map((i) => `${i.day ?? ''}|${i.message.id}${i.first ? '*' : ''}`)).toEqual([
      '2026-11-19|1*',
      '|2',
      '|3*',
      '2026-11-20|4*',
    ]);
    expect(items.map((i) => i.key)).toEqual(['msg-1', 'msg-2', 'msg-3', 'msg-4']);
  });

  it('gives an empty conversation no rows', () => {
    expect(buildTimeline([])).toEqual([]);
  });
});

describe('dayLabel', () => {
  const now = new Date(2026, 10, 22, 15);
  it('says today, yesterday, else dd/MM/yyyy', () => {
    expect(dayLabel(new Date(2026, 10, 22, 1).toISOString(), now)).toEqual({ kind: 'today' });
    expect(dayLabel(new Date(2026, 10, 21, 23).toISOString(), now)).toEqual({ kind: 'yesterday' });
    expect(dayLabel(new Date(2026, 0, 5, 12).toISOString(), now)).toEqual({ kind: 'date', text: '05/01/2026' });
  });
});
