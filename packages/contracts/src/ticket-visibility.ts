/**
 * Which tickets a user may see (spec 2 §4 "List behaviour", §6; docs/inbox.md "Visibility").
 * The server enforces it (and has it in SQL too); the web app mirrors it so live lists keep
 * what a reload would show.
 */
export interface TicketViewer {
  id: number;
  isAdmin: boolean;
  /** The user's own queues. */
  queueIds: number[];
  allTicket: boolean;
  allHistoric: boolean;
  allUserChat: boolean;
  allowGroup: boolean;
}

/** Admins and users with allTicket / allHistoric / allUserChat see the whole company (the socket's company-wide room). */
export const seesWholeCompany = (v: TicketViewer) => v.isAdmin || v.allTicket || v.allHistoric || v.allUserChat;

/**
 * May the viewer open this ticket (its conversation, its room, its actions)?
 * Admins may open every ticket of their company. Others: group tickets need
 * allowGroup; their own tickets, always; otherwise the ticket must be in one of
 * their queues (or have no queue, with allTicket) and be unassigned, or be
 * anyone's when they see the whole company (allTicket / allHistoric / allUserChat).
 */
export function canSeeTicket(v: TicketViewer, t: { userId: number | null; queueId: number | null; status: string }): boolean {
  if (v.isAdmin) return true;
  if (t.status === 'group' && !v.allowGroup) return false;
  if (t.userId === v.id) return true;
  const inScope = t.queueId === null ? v.allTicket : v.queueIds.includes(t.queueId);
  return inScope && (t.userId === null || seesWholeCompany(v));
}
