import { describe, expect, it } from 'vitest';
import type { KanbanTicket } from '@balcao/contracts';
import { cardTime, columnsOf, columnTotal, DEFAULT_COLUMN, parseValue, readSort } from './board';

let seq = 0;
function card(over: { id?: number; tags?: number[]; valor?: string; updatedAt?: string } = {}): KanbanTicket {
  seq += 1;
  return {
    id: over.id ?? seq,
    uuid: `u-${seq}`,
    status: 'open',
    queueId: 1,
    updatedAt: over.updatedAt ?? '2025-03-01T10:00:00.000Z',
    lastMessage: 'oi',
    unreadMessages: 0,
    tags: (over.tags ?? []).map((id) => ({ id, name: `T${id}`, color: '#000' })),
    contact: { id: seq, name: 'Maria', urlPicture: null, extraInfo: over.valor === undefined ? [] : [{ id: 1, name: 'valor', value: over.valor }] },
    user: null,
  };
}

describe('kanban board', () => {
  it('puts cards in the lane of their first lane tag, else the default column (plain tags do not place them)', () => {
    const cols = columnsOf([card({ id: 1, tags: [99] }), card({ id: 2, tags: [10] }), card({ id: 3, tags: [20, 10] })], [10, 20], 'ticket');
    expect(cols.get(DEFAULT_COLUMN)!.map((c) => c.id)).toEqual([1]);
    expect(cols.get(10)!.map((c) => c.id)).toEqual([2]);
    expect(cols.get(20)!.map((c) => c.id)).toEqual([3]);
  });

  it('sorts by ticket number, last message time and value (highest first, none last)', () => {
    const cards = [
      card({ id: 3, valor: '10', updatedAt: '2025-03-01T09:00:00Z' }),
      card({ id: 1, updatedAt: '2025-03-01T11:00:00Z' }),
      card({ id: 2, valor: '250.5', updatedAt: '2025-03-01T10:00:00Z' }),
    ];
    const ids = (sort: 'ticket' | 'lastMessage' | 'value') => columnsOf(cards, [], sort).get(DEFAULT_COLUMN)!.map((c) => c.id);
    expect(ids('ticket')).toEqual([1, 2, 3]);
    expect(ids('lastMessage')).toEqual([1, 2, 3]);
    expect(ids('value')).toEqual([2, 3, 1]);
    expect(readSort('value')).toBe('value');
    expect(readSort('garbage')).toBe('ticket');
  });

  it('adds the numeric values of a column', () => {
    expect(columnTotal([card({ valor: '150.50' }), card({ valor: '49,5' }), card({ valor: 'abc' }), card()])).toBe(200);
  });

  it('reads the typed value with either decimal separator and refuses anything else', () => {
    expect(parseValue(' 1234,56 ')).toBe(1234.56);
    expect(parseValue('10.5')).toBe(10.5);
    for (const bad of ['', 'abc', '-3', '1e3', '1,2,3']) expect(parseValue(bad)).toBeNull();
  });

  it('shows HH:mm for today, else dd/MM/yyyy', () => {
    const now = new Date(2025, 2, 1, 18, 0);
    expect(cardTime(new Date(2025, 2, 1, 9, 5).toISOString(), now)).toBe('09:05');
    expect(cardTime(new Date(2025, 1, 28, 9, 5).toISOString(), now)).toBe('28/02/2025');
  });
});
