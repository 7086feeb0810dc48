import type { InfiniteData } from '@tanstack/react-query';
import { canSeeTicket, seesWholeCompany, type SessionUser, type Ticket, type TicketViewer } from '@balcao/contracts';

/** The inbox's lists: the status tabs plus the closed and search views (spec 2 §2 "Status tabs"). */
export const LIST_VIEWS = ['open', 'pending', 'group', 'closed', 'search'] as const;
export type ListView = (typeof LIST_VIEWS)[number];
export type SortOrder = 'ASC' | 'DESC';

/** Everything a list query depends on; also the tail of its query key. */
export interface ListFilters {
  view: ListView;
  search: string;
  searchOnMessages: boolean;
  queueIds: number[];
  showAll: boolean;
  sort: SortOrder;
  tags: number[];
  users: number[];
  whatsapps: number[];
  statusFilter: string[];
}

/** One page of `GET /tickets`. */
export interface TicketListPage {
  tickets: Ticket[];
  count: number;
  hasMore: boolean;
}

export type TicketPages = InfiniteData<TicketListPage>;

/** What of the user decides which tickets the inbox shows (the server's rule, shared from contracts). */
export type ListViewer = TicketViewer;

export function viewerOf(user: SessionUser): ListViewer {
  return {
    id: user.id,
    isAdmin: user.profile === 'admin' || user.super,
    queueIds: user.queues.map((q) => q.id),
    allTicket: user.allTicket === 'enabled',
    allHistoric: user.allHistoric === 'enabled',
    allUserChat: user.allUserChat === 'enabled',
    allowGroup: user.allowGroup,
  };
}

type Visible = Pick<Ticket, 'status' | 'userId' | 'queueId'>;

/**
 * Spec 2 §4 "List behaviour" within what the user may see: in the status tabs a
 * ticket is shown if it is unassigned or the user's (or show-all is on, for those
 * allowed it); the history (closed) shows only one's own unless the user sees the
 * whole company; a ticket in a queue that is not selected is not shown (tickets
 * without a queue are left to the visibility rule; no selection narrows nothing).
 */
export function visibleInInbox(ticket: Visible, filters: Pick<ListFilters, 'view' | 'queueIds' | 'showAll'>, viewer: ListViewer): boolean {
  if (!canSeeTicket(viewer, ticket)) return false;
  const mine = ticket.userId === viewer.id;
  if (filters.view === 'closed' || filters.view === 'search') {
    if (!seesWholeCompany(viewer) && !mine) return false;
  } else {
    const showAll = filters.showAll && (viewer.isAdmin || viewer.allUserChat);
    if (!showAll && !mine && ticket.userId !== null) return false;
  }
  return ticket.queueId === null || filters.queueIds.length === 0 || filters.queueIds.includes(ticket.queueId);
}

/** Does this ticket belong in this list now? The search view never gains rows live (its rows come from the query). */
export function belongsToList(ticket: Visible, filters: ListFilters, viewer: ListViewer): boolean {
  if (filters.view === 'search') return false;
  return ticket.status === filters.view && visibleInInbox(ticket, filters, viewer);
}

export type TicketListEvent =
  | { kind: 'update'; ticket: Ticket }
  | { kind: 'delete'; ticketId: number }
  | { kind: 'readAll'; ticketId: number }
  /** A contact changed (name, picture, tags): its rows show the new one. */
  | { kind: 'contact'; contact: Ticket['contact'] }
  /** A new message: the ticket moves to the top with its new last message and unread count. */
  | { kind: 'message'; ticket: Partial<Ticket> & Pick<Ticket, 'id'>; message: { body: string; fromMe: boolean } };

const mapTickets = (data: TicketPages, fn: (list: Ticket[]) => Ticket[]): TicketPages => ({
  ...data,
  pages: data.pages.map((p) => ({ ...p, tickets: fn(p.tickets) })),
});

function findTicket(data: TicketPages, id: number): Ticket | undefined {
  for (const page of data.pages) {
    const found = page.tickets.find((t) => t.id === id);
    if (found) return found;
  }
  return undefined;
}

function withCount(data: TicketPages, delta: number): TicketPages {
  if (delta === 0) return data;
  return { ...data, pages: data.pages.map((p) => ({ ...p, count: Math.max(0, p.count + delta) })) };
}

function remove(data: TicketPages, id: number): TicketPages {
  if (!findTicket(data, id)) return data;
  return withCount(
    mapTickets(data, (list) => list.filter((t) => t.id !== id)),
    -1,
  );
}

/**
 * Puts the ticket where the order says a just-touched ticket goes: the top
 * (newest first), or the end of the list when every page is loaded (oldest
 * first); with more pages still to load it leaves the list and comes back on scroll.
 */
function moveToFront(data: TicketPages, ticket: Ticket, sort: SortOrder): TicketPages {
  const existed = findTicket(data, ticket.id) !== undefined;
  const without = mapTickets(data, (list) => list.filter((t) => t.id !== ticket.id));
  const pages = without.pages;
  if (pages.length === 0) return data;
  if (sort === 'DESC') {
    const [first, ...rest] = pages;
    const next = { ...without, pages: [{ ...first!, tickets: [ticket, ...first!.tickets] }, ...rest] };
    return withCount(next, existed ? 0 : 1);
  }
  const last = pages[pages.length - 1]!;
  if (last.hasMore) return withCount(without, existed ? -1 : 0);
  const next = { ...without, pages: [...pages.slice(0, -1), { ...last, tickets: [...last.tickets, ticket] }] };
  return withCount(next, existed ? 0 : 1);
}

/** A full ticket (from an event) has what a row shows. */
const isFullTicket = (t: Partial<Ticket>): t is Ticket => typeof t.uuid === 'string' && t.contact !== undefined && t.status !== undefined;

/**
 * One list's cached pages after a realtime event (spec 2 §4 "List behaviour"):
 * updates replace, insert or remove by status and visibility, deletes remove,
 * a read resets the unread count, a new message bumps the ticket.
 */
export function applyTicketListEvent(
  data: TicketPages | undefined,
  event: TicketListEvent,
  filters: ListFilters,
  viewer: ListViewer,
): TicketPages | undefined {
  if (!data) return data;
  switch (event.kind) {
    case 'delete':
      return remove(data, event.ticketId);
    case 'readAll':
      if (!findTicket(data, event.ticketId)) return data;
      return mapTickets(data, (list) => list.map((t) => (t.id === event.ticketId ? { ...t, unreadMessages: 0 } : t)));
    case 'contact': {
      const { contact } = event;
      if (!data.pages.some((p) => p.tickets.some((t) => t.contactId === contact.id))) return data;
      return mapTickets(data, (list) => list.map((t) => (t.contactId === contact.id ? { ...t, contact: { ...t.contact, ...contact } } : t)));
    }
    case 'update': {
      const { ticket } = event;
      const present = findTicket(data, ticket.id) !== undefined;
      if (filters.view === 'search') {
        return present ? mapTickets(data, (list) => list.map((t) => (t.id === ticket.id ? ticket : t))) : data;
      }
      if (!belongsToList(ticket, filters, viewer)) return remove(data, ticket.id);
      if (present) return mapTickets(data, (list) => list.map((t) => (t.id === ticket.id ? ticket : t)));
      return moveToFront(data, ticket, filters.sort);
    }
    case 'message': {
      const existing = findTicket(data, event.ticket.id);
      const base = existing ? { ...existing, ...event.ticket } : event.ticket;
      if (!isFullTicket(base)) return data;
      const merged: Ticket = {
        ...base,
        lastMessage: event.ticket.lastMessage ?? event.message.body,
        unreadMessages:
          event.ticket.unreadMessages ?? (existing?.unreadMessages ?? 0) + (event.message.fromMe ? 0 : 1),
      };
      if (filters.view === 'search') {
        return existing ? mapTickets(data, (list) => list.map((t) => (t.id === merged.id ? merged : t))) : data;
      }
      if (!belongsToList(merged, filters, viewer)) return existing ? remove(data, merged.id) : data;
      return moveToFront(data, merged, filters.sort);
    }
  }
}

/** Tickets in the loaded pages, each once (a live bump can race a page fetch). */
export function flattenPages(data: TicketPages | undefined): Ticket[] {
  if (!data) return [];
  const seen = new Set<number>();
  const out: Ticket[] = [];
  for (const page of data.pages) {
    for (const t of page.tickets) {
      if (seen.has(t.id)) continue;
      seen.add(t.id);
      out.push(t);
    }
  }
  return out;
}

/** Conversations with unread messages (the tab badge). */
export const unreadConversations = (tickets: readonly Ticket[]) => tickets.filter((t) => t.unreadMessages > 0).length;

/** Unread messages across the lists the user works from (the browser tab title). */
export const unreadMessagesTotal = (tickets: readonly Ticket[]) => tickets.reduce((sum, t) => sum + Math.max(0, t.unreadMessages), 0);
