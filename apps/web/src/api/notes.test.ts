import { describe, expect, it } from 'vitest';
import type { TicketNote } from '@balcao/contracts';
import { newestFirst } from './notes';

const note = (id: number, createdAt: string): TicketNote => ({
  id,
  note: `n${id}`,
  userId: 1,
  user: { id: 1, name: 'Ana' },
  ticketId: 1,
  contactId: 1,
  createdAt,
  updatedAt: createdAt,
});

describe('newestFirst', () => {
  it('orders notes by creation time, newest first, then by id', () => {
    const list = [note(1, '2026-01-01T10:00:00.000Z'), note(3, '2026-01-02T09:00:00.000Z'), note(2, '2026-01-01T10:00:00.000Z')];
    expect([...list].sort(newestFirst).map((n) => n.id)).toEqual([3, 2, 1]);
  });
});
