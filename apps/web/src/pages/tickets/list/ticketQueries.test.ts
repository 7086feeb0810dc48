import { describe, expect, it } from 'vitest';
import type { ListFilters } from './listModel';
import { ticketListQuery } from './ticketQueries';

const base: ListFilters = {
  view: 'pending',
  search: '',
  searchOnMessages: false,
  queueIds: [1, 2],
  showAll: true,
  sort: 'ASC',
  tags: [],
  users: [],
  whatsapps: [],
  statusFilter: [],
};

describe('ticketListQuery (spec 2 §7 GET /tickets)', () => {
  it('sends the tab, page, show-all, sort and the queues as a JSON list', () => {
    const q = new URLSearchParams(ticketListQuery(base, 3));
    expect(Object.fromEntries(q)).toEqual({
      pageNumber: '3',
      status: 'pending',
      showAll: 'true',
      queueIds: '[1,2]',
      withUnreadMessages: 'false',
      sortTickets: 'ASC',
    });
  });

  it('sends the search term and filters in the search view, without a sort', () => {
    const q = new URLSearchParams(
      ticketListQuery({ ...base, view: 'search', search: ' maria ', searchOnMessages: true, tags: [4], users: [7], whatsapps: [2], statusFilter: ['open', 'closed'] }, 1),
    );
    expect(q.get('searchParam')).toBe('maria');
    expect(q.get('searchOnMessages')).toBe('true');
    expect(q.get('tags')).toBe('[4]');
    expect(q.get('users')).toBe('[7]');
    expect(q.get('whatsapps')).toBe('[2]');
    expect(q.get('statusFilter')).toBe('["open","closed"]');
    expect(q.has('sortTickets')).toBe(false);
  });

  it('sends no sort on the closed view', () => {
    expect(new URLSearchParams(ticketListQuery({ ...base, view: 'closed' }, 1)).has('sortTickets')).toBe(false);
  });
});
