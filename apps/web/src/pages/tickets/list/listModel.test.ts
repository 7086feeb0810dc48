import { describe, expect, it } from 'vitest';
import type { Ticket } from '@balcao/contracts';
import {
  applyTicketListEvent,
  belongsToList,
  flattenPages,
  unreadConversations,
  unreadMessagesTotal,
  visibleInInbox,
  type ListFilters,
  type ListViewer,
  type TicketPages,
} from './listModel';
import { rowTags } from './rowFormat';

const ME = 7;

function ticket(id: number, over: Partial<Ticket> = {}): Ticket {
  return {
    id,
    uuid: `uuid-${id}`,
    companyId: 1,
    status: 'pending',
    userId: null,
    queueId: 1,
    contactId: id,
    whatsappId: 1,
    isGroup: false,
    channel: 'facebook',
    useIntegration: false,
    lastMessage: `message ${id}`,
    unreadMessages: 0,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    closedAt: null,
    contact: { id, name: `Contact ${id}` } as Ticket['contact'],
    queue: { id: 1, name: 'Suporte', color: '#ff0000' },
    user: null,
    tags: [],
    whatsapp: null,
    ...over,
  };
}

const user: ListViewer = { id: ME, isAdmin: false, queueIds: [1, 2], allTicket: false, allHistoric: false, allUserChat: false, allowGroup: false };
const admin: ListViewer = { ...user, isAdmin: true, queueIds: [] };

function filters(over: Partial<ListFilters> = {}): ListFilters {
  return {
    view: 'pending',
    search: '',
    searchOnMessages: false,
    queueIds: [1, 2],
    showAll: false,
    sort: 'DESC',
    tags: [],
    users: [],
    whatsapps: [],
    statusFilter: [],
    ...over,
  };
}

function pages(lists: Ticket[][], lastHasMore = false): TicketPages {
  const count = lists.reduce((n, l) => n + l.length, 0);
  return {
    pages: lists.map((tickets, i) => ({ tickets, count, hasMore: i < lists.length - 1 || lastHasMore })),
    pageParams: lists.map((_, i) => i + 1),
  };
}

const ids = (data: TicketPages | undefined) => flattenPages(data).map((t) => t.id);

describe('visibleInInbox (spec 2 §4 "List behaviour")', () => {
  it('shows unassigned tickets and the user’s own in the tabs, others only with show-all', () => {
    expect(visibleInInbox(ticket(1), filters(), user)).toBe(true);
    expect(visibleInInbox(ticket(1, { userId: ME, status: 'open' }), filters({ view: 'open' }), user)).toBe(true);
    const others = ticket(1, { userId: 99, status: 'open' });
    expect(visibleInInbox(others, filters({ view: 'open' }), admin)).toBe(false);
    expect(visibleInInbox(others, filters({ view: 'open', showAll: true }), admin)).toBe(true);
  });

  it('honours show-all only for admins and users with allUserChat', () => {
    const others = ticket(1, { userId: 99, status: 'open' });
    expect(visibleInInbox(others, filters({ view: 'open', showAll: true }), { ...user, allHistoric: true })).toBe(false);
    expect(visibleInInbox(others, filters({ view: 'open', showAll: true }), { ...user, allUserChat: true })).toBe(true);
  });

  it('hides a ticket whose queue is not selected; no selection narrows nothing', () => {
    expect(visibleInInbox(ticket(1, { queueId: 2 }), filters({ queueIds: [1] }), user)).toBe(false);
    expect(visibleInInbox(ticket(1, { queueId: 2 }), filters({ queueIds: [] }), user)).toBe(true);
  });

  it('shows a ticket without a queue to users with allTicket (and to admins), not to others', () => {
    const noQueue = ticket(1, { queueId: null, queue: null });
    expect(visibleInInbox(noQueue, filters(), user)).toBe(false);
    expect(visibleInInbox(noQueue, filters(), { ...user, allTicket: true })).toBe(true);
    expect(visibleInInbox(noQueue, filters(), admin)).toBe(true);
  });

  it('never shows a ticket of a queue that is not the user’s, whatever the selection', () => {
    expect(visibleInInbox(ticket(1, { queueId: 5 }), filters({ queueIds: [] }), user)).toBe(false);
  });

  it('shows group tickets only with allowGroup', () => {
    const group = ticket(1, { status: 'group' });
    expect(visibleInInbox(group, filters({ view: 'group' }), user)).toBe(false);
    expect(visibleInInbox(group, filters({ view: 'group' }), { ...user, allowGroup: true })).toBe(true);
  });

  it('shows only one’s own closed tickets unless the user sees the whole company', () => {
    const closedByOther = ticket(1, { status: 'closed', userId: 99 });
    expect(visibleInInbox(closedByOther, filters({ view: 'closed' }), { ...user, allHistoric: true })).toBe(true);
    expect(visibleInInbox(closedByOther, filters({ view: 'closed' }), user)).toBe(false);
    expect(visibleInInbox(ticket(1, { status: 'closed', userId: ME }), filters({ view: 'closed' }), user)).toBe(true);
  });

  it('belongsToList requires the list’s status and never adds to the search view', () => {
    expect(belongsToList(ticket(1, { status: 'open', userId: ME }), filters({ view: 'pending' }), user)).toBe(false);
    expect(belongsToList(ticket(1, { status: 'open', userId: ME }), filters({ view: 'open' }), user)).toBe(true);
    expect(belongsToList(ticket(1), filters({ view: 'search' }), user)).toBe(false);
  });
});

describe('applyTicketListEvent', () => {
  it('puts a new visible ticket at the top of its list and counts it', () => {
    const data = pages([[ticket(1), ticket(2)]]);
    const next = applyTicketListEvent(data, { kind: 'update', ticket: ticket(3) }, filters(), user);
    expect(ids(next)).toEqual([3, 1, 2]);
    expect(next?.pages[0]?.count).toBe(3);
  });

  it('replaces a ticket in place on an update that keeps it in the list', () => {
    const data = pages([[ticket(1), ticket(2)]]);
    const next = applyTicketListEvent(data, { kind: 'update', ticket: ticket(2, { lastMessage: 'new' }) }, filters(), user);
    expect(ids(next)).toEqual([1, 2]);
    expect(flattenPages(next)[1]?.lastMessage).toBe('new');
  });

  it('removes a ticket whose status left the list (accepted: pending → open)', () => {
    const data = pages([[ticket(1), ticket(2)]]);
    const accepted = ticket(1, { status: 'open', userId: ME });
    expect(ids(applyTicketListEvent(data, { kind: 'update', ticket: accepted }, filters(), user))).toEqual([2]);
    const openList = pages([[ticket(5, { status: 'open', userId: ME })]]);
    expect(ids(applyTicketListEvent(openList, { kind: 'update', ticket: accepted }, filters({ view: 'open' }), user))).toEqual([1, 5]);
  });

  it('removes a ticket moved to a queue that is not selected', () => {
    const data = pages([[ticket(1), ticket(2)]]);
    const moved = ticket(2, { queueId: 2, queue: { id: 2, name: 'Vendas', color: '#00f' } });
    const next = applyTicketListEvent(data, { kind: 'update', ticket: moved }, filters({ queueIds: [1] }), user);
    expect(ids(next)).toEqual([1]);
    expect(next?.pages[0]?.count).toBe(1);
  });

  it('does not add a ticket of a queue that is not selected', () => {
    const data = pages([[ticket(1)]]);
    const next = applyTicketListEvent(data, { kind: 'update', ticket: ticket(9, { queueId: 2 }) }, filters({ queueIds: [1] }), user);
    expect(next).toBe(data);
  });

  it('removes a ticket taken by another user from a user’s pending list', () => {
    const data = pages([[ticket(1)]]);
    const taken = ticket(1, { status: 'open', userId: 99 });
    expect(ids(applyTicketListEvent(data, { kind: 'update', ticket: taken }, filters(), user))).toEqual([]);
    const openList = pages([[]]);
    expect(ids(applyTicketListEvent(openList, { kind: 'update', ticket: taken }, filters({ view: 'open' }), user))).toEqual([]);
  });

  it('deletes a ticket from whichever page holds it', () => {
    const data = pages([[ticket(1)], [ticket(2), ticket(3)]]);
    const next = applyTicketListEvent(data, { kind: 'delete', ticketId: 2 }, filters(), user);
    expect(ids(next)).toEqual([1, 3]);
    expect(applyTicketListEvent(data, { kind: 'delete', ticketId: 42 }, filters(), user)).toBe(data);
  });

  it('resets the unread count on updateUnread', () => {
    const data = pages([[ticket(1, { unreadMessages: 4 }), ticket(2, { unreadMessages: 1 })]]);
    const next = applyTicketListEvent(data, { kind: 'readAll', ticketId: 1 }, filters(), user);
    expect(flattenPages(next).map((t) => t.unreadMessages)).toEqual([0, 1]);
  });

  it('bumps a ticket to the top on a new customer message, with its last message and one more unread', () => {
    const data = pages([[ticket(1), ticket(2, { unreadMessages: 2 })]]);
    const next = applyTicketListEvent(
      data,
      { kind: 'message', ticket: { id: 2, status: 'pending', userId: null, queueId: 1 }, message: { body: 'Olá?', fromMe: false } },
      filters(),
      user,
    );
    expect(ids(next)).toEqual([2, 1]);
    expect(flattenPages(next)[0]).toMatchObject({ lastMessage: 'Olá?', unreadMessages: 3, contact: { name: 'Contact 2' } });
    expect(next?.pages[0]?.count).toBe(2);
  });

  it('takes the event ticket’s own counts when it carries them, and our own message adds no unread', () => {
    const data = pages([[ticket(1), ticket(2, { unreadMessages: 2 })]]);
    const full = ticket(2, { unreadMessages: 5, lastMessage: 'server text' });
    const byServer = applyTicketListEvent(data, { kind: 'message', ticket: full, message: { body: 'x', fromMe: false } }, filters(), user);
    expect(flattenPages(byServer)[0]).toMatchObject({ unreadMessages: 5, lastMessage: 'server text' });
    const mine = applyTicketListEvent(data, { kind: 'message', ticket: { id: 2 }, message: { body: 'reply', fromMe: true } }, filters(), user);
    expect(flattenPages(mine)[0]).toMatchObject({ unreadMessages: 2, lastMessage: 'reply' });
  });

  it('adds the ticket of a first message when the event carries the full ticket, not a partial one', () => {
    const data = pages([[ticket(1)]]);
    expect(ids(applyTicketListEvent(data, { kind: 'message', ticket: ticket(8), message: { body: 'oi', fromMe: false } }, filters(), user))).toEqual([8, 1]);
    const partial = applyTicketListEvent(data, { kind: 'message', ticket: { id: 9, status: 'pending' }, message: { body: 'oi', fromMe: false } }, filters(), user);
    expect(partial).toBe(data);
  });

  it('in oldest-first order, a bumped ticket goes to the end when every page is loaded, else leaves until scrolled to', () => {
    const all = pages([[ticket(1), ticket(2), ticket(3)]]);
    const bump = { kind: 'message', ticket: { id: 1 }, message: { body: 'again', fromMe: false } } as const;
    expect(ids(applyTicketListEvent(all, bump, filters({ sort: 'ASC' }), user))).toEqual([2, 3, 1]);
    const partial = pages([[ticket(1), ticket(2), ticket(3)]], true);
    const next = applyTicketListEvent(partial, bump, filters({ sort: 'ASC' }), user);
    expect(ids(next)).toEqual([2, 3]);
    expect(next?.pages[0]?.count).toBe(2);
  });

  it('in the search view only refreshes rows it already has', () => {
    const data = pages([[ticket(1, { status: 'closed', userId: ME })]]);
    const search = filters({ view: 'search' });
    expect(applyTicketListEvent(data, { kind: 'update', ticket: ticket(2) }, search, user)).toBe(data);
    const next = applyTicketListEvent(data, { kind: 'update', ticket: ticket(1, { status: 'open', userId: ME }) }, search, user);
    expect(flattenPages(next)[0]?.status).toBe('open');
  });

  it('shows a tag added to the contact (the drawer) on its rows at once, after the ticket’s own, each once', () => {
    const vip = { id: 5, name: 'VIP', color: '#AA0000' };
    const lane = { id: 6, name: 'Proposta', color: '#00AA00' };
    const data = pages([[ticket(1), ticket(2, { tags: [lane] })]]);
    const tagged = { ...ticket(2).contact, tags: [vip, lane] };
    const next = applyTicketListEvent(data, { kind: 'contact', contact: tagged }, filters(), user);
    expect(flattenPages(next).map((t) => rowTags(t).map((tag) => tag.name))).toEqual([[], ['Proposta', 'VIP']]);
  });

  it('shows a contact’s new name on its rows', () => {
    const data = pages([[ticket(1), ticket(2)]]);
    const renamed = { ...ticket(2).contact, name: 'Maria Souza' };
    const next = applyTicketListEvent(data, { kind: 'contact', contact: renamed }, filters(), user);
    expect(flattenPages(next).map((t) => t.contact.name)).toEqual(['Contact 1', 'Maria Souza']);
    expect(applyTicketListEvent(data, { kind: 'contact', contact: { ...renamed, id: 99 } }, filters(), user)).toBe(data);
  });

  it('leaves an unloaded list alone', () => {
    expect(applyTicketListEvent(undefined, { kind: 'delete', ticketId: 1 }, filters(), user)).toBeUndefined();
  });
});

describe('flattenPages and unread totals', () => {
  it('lists each ticket once even if a bump raced a page load', () => {
    const data = pages([[ticket(1), ticket(2)], [ticket(2), ticket(3)]]);
    expect(ids(data)).toEqual([1, 2, 3]);
  });

  it('counts conversations with unread messages and the messages themselves', () => {
    const list = [ticket(1, { unreadMessages: 3 }), ticket(2), ticket(3, { unreadMessages: 1 })];
    expect(unreadConversations(list)).toBe(2);
    expect(unreadMessagesTotal(list)).toBe(4);
  });
});
