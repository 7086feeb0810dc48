import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { userQueues, users } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import { AppError } from '../../http/errors.js';

/** What decides which tickets a user may see (spec 2 §4 "List behaviour", §6). */
export interface Viewer {
  id: number;
  companyId: number;
  isAdmin: boolean;
  queueIds: number[];
  allTicket: boolean;
  allHistoric: boolean;
  allUserChat: boolean;
  allowGroup: boolean;
  userClosePendingTicket: boolean;
  showDashboard: boolean;
}

export async function loadViewer(db: DbOrTx, auth: AuthUser): Promise<Viewer> {
  const [row] = await db.select().from(users).where(eq(users.id, auth.id));
  if (!row || row.companyId !== auth.companyId) throw new AppError('ERR_SESSION_EXPIRED', 403);
  const queueRows = await db.select({ id: userQueues.queueId }).from(userQueues).where(eq(userQueues.userId, row.id));
  return {
    id: row.id,
    companyId: row.companyId,
    isAdmin: row.profile === 'admin' || row.super,
    queueIds: queueRows.map((q) => q.id),
    allTicket: row.allTicket === 'enabled',
    allHistoric: row.allHistoric === 'enabled',
    allUserChat: row.allUserChat === 'enabled',
    allowGroup: row.allowGroup,
    userClosePendingTicket: row.userClosePendingTicket === 'enabled',
    showDashboard: row.showDashboard === 'enabled',
  };
}

/** Admins and users with allTicket / allHistoric / allUserChat see the whole company (the socket's company-wide room). */
export const seesWholeCompany = (v: Viewer) => v.isAdmin || v.allTicket || v.allHistoric || v.allUserChat;

/**
 * May the viewer open this ticket (its conversation, its room, its actions)?
 * The whole-company scope may; others see their own tickets and the unassigned
 * tickets of their queues. Group tickets also need allowGroup.
 */
export function canSeeTicket(v: Viewer, t: { userId: number | null; queueId: number | null; status: string }): boolean {
  if (v.isAdmin) return true;
  if (t.status === 'group' && !v.allowGroup) return false;
  if (seesWholeCompany(v)) return true;
  if (t.userId === v.id) return true;
  return t.userId === null && t.queueId !== null && v.queueIds.includes(t.queueId);
}

/** 403 ERR_NO_PERMISSION unless the viewer may see the ticket (which must already be known to be in the viewer's company). */
export function assertCanSeeTicket(v: Viewer, t: { companyId: number; userId: number | null; queueId: number | null; status: string }): void {
  if (t.companyId !== v.companyId) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  if (!canSeeTicket(v, t)) throw new AppError('ERR_NO_PERMISSION', 403);
}
