import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/http';
import { parseTicketConflict } from './conflict';

const existing = { id: 12, uuid: 'u-12', userId: 3, user: { name: 'Maria' }, queue: { name: 'Vendas' }, status: 'open' };

describe('parseTicketConflict (spec 2 §8 "Ticket creation conflict")', () => {
  it('reads the ticket from the JSON string in error', () => {
    const err = new ApiError(409, { error: JSON.stringify(existing) });
    expect(parseTicketConflict(err)).toEqual({ id: 12, uuid: 'u-12', userId: 3, userName: 'Maria', queueName: 'Vendas' });
  });

  it('accepts the ticket as an object, and a ticket without owner or queue', () => {
    const err = new ApiError(409, { error: { uuid: 'u-1', userId: null, user: null, queue: null } });
    expect(parseTicketConflict(err)).toEqual({ id: null, uuid: 'u-1', userId: null, userName: '', queueName: '' });
  });

  it('is null for other failures', () => {
    expect(parseTicketConflict(new ApiError(400, { error: 'ERR_VALIDATION' }))).toBeNull();
    expect(parseTicketConflict(new ApiError(409, { error: 'ERR_OTHER_OPEN_TICKET' }))).toBeNull();
    expect(parseTicketConflict(new ApiError(409, { error: '{"no":"uuid"}' }))).toBeNull();
    expect(parseTicketConflict(new Error('network'))).toBeNull();
  });
});
