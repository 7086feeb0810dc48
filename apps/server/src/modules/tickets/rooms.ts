import { ROOMS } from '../../realtime/server.js';

/**
 * Who may receive a ticket's events (ARCHITECTURE §6): its owner, its queue and
 * the company-wide scope (admins, allTicket / allHistoric / allUserChat users).
 * An unassigned ticket without a queue therefore reaches the company-wide scope only.
 */
export function ticketRooms(ticket: { userId: number | null; queueId: number | null }): string[] {
  const rooms: string[] = [ROOMS.companyWide];
  if (ticket.userId) rooms.push(ROOMS.user(ticket.userId));
  if (ticket.queueId) rooms.push(ROOMS.queue(ticket.queueId));
  return rooms;
}
