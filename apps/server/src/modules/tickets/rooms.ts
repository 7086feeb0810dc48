import { ROOMS } from '../../realtime/server.js';

/**
 * Who may receive a ticket's events (ARCHITECTURE §6): its owner, its queue and
 * the company-wide scope (admins, allTicket / allHistoric / allUserChat users),
 * plus the sockets that opened it (`joinChatBox`, granted only to who may see it).
 * An unassigned ticket without a queue therefore reaches the company-wide scope only.
 */
export function ticketRooms(ticket: { id?: number; userId: number | null; queueId: number | null }): string[] {
  const rooms: string[] = [ROOMS.companyWide];
  if (ticket.id) rooms.push(ROOMS.ticket(ticket.id));
  if (ticket.userId) rooms.push(ROOMS.user(ticket.userId));
  if (ticket.queueId) rooms.push(ROOMS.queue(ticket.queueId));
  return rooms;
}
