import { canSeeTicket, seesWholeCompany, type TicketViewer } from '@balcao/contracts';
import { and, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { companySettings, tickets, userQueues, users } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import { AppError } from '../../http/errors.js';

/** The shared rule's viewer (packages/contracts `TicketViewer`) plus what the server's checks also read. */
export interface Viewer extends TicketViewer {
  companyId: number;
  userClosePendingTicket: boolean;
  showDashboard: boolean;
  /** The company's LGPD `lgpdHideNumber` (the list masks numbers for non-admins with it), read in the same statement. */
  companyHidesNumbers: boolean;
}

/** The viewer's row and queue ids; built once per database handle, run as a named prepared statement (every list request reads it). */
function prepareViewer(db: DbOrTx) {
  return db
    .select({
      user: users,
      queueIds: sql<number[]>`array(select ${userQueues.queueId} from ${userQueues} where ${userQueues.userId} = ${users.id})`,
      // Qualified by hand: drizzle leaves a one-table select's columns bare, and "company_id" would be the settings' own.
      hidesNumbers: sql<boolean>`coalesce((select s.lgpd_hide_number = 'enabled' from ${companySettings} s where s.company_id = "users"."company_id"), false)`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('tickets_viewer');
}
const viewerQueries = new WeakMap<DbOrTx, ReturnType<typeof prepareViewer>>();

/** The viewer, read fresh (one query: the user and its queue ids). */
export async function loadViewer(db: DbOrTx, auth: Pick<AuthUser, 'id' | 'companyId'>): Promise<Viewer> {
  let query = viewerQueries.get(db);
  if (!query) viewerQueries.set(db, (query = prepareViewer(db)));
  const [row] = await query.execute({ id: auth.id });
  if (!row || row.user.companyId !== auth.companyId) throw new AppError('ERR_SESSION_EXPIRED', 403);
  const { user } = row;
  return {
    id: user.id,
    companyId: user.companyId,
    isAdmin: user.profile === 'admin' || user.super,
    queueIds: row.queueIds,
    allTicket: user.allTicket === 'enabled',
    allHistoric: user.allHistoric === 'enabled',
    allUserChat: user.allUserChat === 'enabled',
    allowGroup: user.allowGroup,
    userClosePendingTicket: user.userClosePendingTicket === 'enabled',
    showDashboard: user.showDashboard === 'enabled',
    companyHidesNumbers: row.hidesNumbers,
  };
}

export { canSeeTicket, seesWholeCompany };

/** `col IN (ids)`, false for no ids. */
export const anyOf = (col: AnyPgColumn, ids: number[]): SQL => (ids.length > 0 ? inArray(col, ids) : sql`false`);

/** Which tickets by owner a where clause is for: all, only the viewer's own, or only unassigned ones. */
export type OwnerBranch = 'all' | 'own' | 'unassigned';

/**
 * `canSeeTicket` as a where clause on `tickets`, company scope included. With an owner
 * branch the rule is written for that branch alone (no `or` left for the planner to
 * carry into an index walk); the caller adds the branch's own condition.
 */
export function visibleTicketsWhere(v: Viewer, branch: OwnerBranch = 'all'): SQL {
  const company = eq(tickets.companyId, v.companyId);
  if (v.isAdmin) return company;
  const inScope = v.allTicket ? or(isNull(tickets.queueId), anyOf(tickets.queueId, v.queueIds)) : anyOf(tickets.queueId, v.queueIds);
  const othersAllowed = seesWholeCompany(v) ? inScope : and(inScope, isNull(tickets.userId));
  const byOwner = { all: or(eq(tickets.userId, v.id), othersAllowed), own: undefined, unassigned: othersAllowed }[branch];
  return and(company, v.allowGroup ? undefined : ne(tickets.status, 'group'), byOwner) as SQL;
}

/** 403 ERR_NO_PERMISSION unless the viewer may see the ticket (404 outside the viewer's company). */
export function assertCanSeeTicket(v: Viewer, t: { companyId: number; userId: number | null; queueId: number | null; status: string }): void {
  if (t.companyId !== v.companyId) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  if (!canSeeTicket(v, t)) throw new AppError('ERR_NO_PERMISSION', 403);
}
