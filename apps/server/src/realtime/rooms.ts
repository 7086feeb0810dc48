import { seesWholeCompany, type TicketViewer } from '@balcao/contracts';

/**
 * Rooms inside a company namespace. Visibility is decided here, at connect, never by the client.
 *
 * Ticket events go to rooms that hold exactly the viewers `canSeeTicket` allows, so one
 * emit per audience replaces any per-socket check: a ticket's room set is its owner, its
 * queue's members (unassigned) or its queue's company-wide viewers (assigned), the
 * queue-less scope (allTicket) and the admins. Group tickets use the `:group` twin of each
 * room, joined only with allowGroup.
 */
export const ROOMS = {
  /** Every authenticated socket of the company. */
  everyone: 'everyone',
  /** Admins and super users: every ticket, and contact numbers unmasked (LGPD). */
  admins: 'admins',
  /** Super users: plan and company lists. */
  supers: 'supers',
  /** Users who may manage connections (admins, allowConnections): QR codes go here only. */
  connections: 'connections',
  user: (id: number) => `user:${id}`,
  /** Sockets that opened a ticket (`joinChatBox`), granted only to users who may see it. */
  ticket: (id: number) => `ticket:${id}`,
  /** Tickets owned by the user. */
  ownTickets: (userId: number) => `tickets:user:${userId}`,
  /** Unassigned tickets of a queue: every member. */
  queueUnassigned: (queueId: number) => `tickets:queue:${queueId}:unassigned`,
  /** Assigned tickets of a queue: members who see the whole company (allTicket, allHistoric, allUserChat). */
  queueAssigned: (queueId: number) => `tickets:queue:${queueId}:assigned`,
  /** Tickets without a queue: allTicket users. */
  noQueue: 'tickets:no-queue',
} as const;

const groupTwin = (room: string) => `${room}:group`;

/** What a user's sockets may receive, read from the database at connect and on every change of the user. */
export interface SocketRights extends TicketViewer {
  companyId: number;
  managesConnections: boolean;
  isSuper: boolean;
}

/** The rooms a user's socket belongs to. */
export function roomsFor(user: SocketRights): string[] {
  const rooms: string[] = [ROOMS.everyone, ROOMS.user(user.id)];
  if (user.managesConnections) rooms.push(ROOMS.connections);
  if (user.isSuper) rooms.push(ROOMS.supers);
  if (user.isAdmin) return [...rooms, ROOMS.admins];
  const ticketRooms = [ROOMS.ownTickets(user.id), ...user.queueIds.map(ROOMS.queueUnassigned)];
  if (seesWholeCompany(user)) ticketRooms.push(...user.queueIds.map(ROOMS.queueAssigned));
  if (user.allTicket) ticketRooms.push(ROOMS.noQueue);
  return [...rooms, ...ticketRooms, ...(user.allowGroup ? ticketRooms.map(groupTwin) : [])];
}

type TicketScope = { userId: number | null; queueId: number | null; status: string };

/** The rooms whose members are exactly the viewers who may see the ticket (`canSeeTicket`). */
export function ticketAudience(ticket: TicketScope): string[] {
  const scoped: string[] = [];
  if (ticket.userId) scoped.push(ROOMS.ownTickets(ticket.userId));
  if (ticket.queueId === null) scoped.push(ROOMS.noQueue);
  else scoped.push(ticket.userId ? ROOMS.queueAssigned(ticket.queueId) : ROOMS.queueUnassigned(ticket.queueId));
  return [ROOMS.admins, ...(ticket.status === 'group' ? scoped.map(groupTwin) : scoped)];
}
