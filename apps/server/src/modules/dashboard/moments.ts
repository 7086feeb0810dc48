import { MOMENTS_DEFAULT_DAYS, MOMENTS_LIMIT, type MomentTicket, type MomentsQuery, type UserMoment } from '@balcao/contracts';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contacts, queues, tickets, users, whatsapps } from '../../db/schema/index.js';
import { visibleTicketsWhere, type Viewer } from '../tickets/visibility.js';
import { dayWindow, lastDays, within, type DayWindow } from './window.js';

/** The panel's window: the given days, else the last 30 (spec 2 §2). */
export const momentsWindow = (q: Pick<MomentsQuery, 'dateStart' | 'dateEnd'>): DayWindow =>
  q.dateStart && q.dateEnd ? dayWindow(q.dateStart, q.dateEnd) : lastDays(MOMENTS_DEFAULT_DAYS);

/** Live work by default: what is being attended and what waits. */
const DEFAULT_STATUSES = ['open', 'pending'] as const;

/**
 * `GET /dashboard/moments`: the tickets the viewer's inbox would show, updated in the window,
 * newest first, at most MOMENTS_LIMIT per status. `userId` narrows to one attendant's tickets.
 */
export async function listMoments(db: DbOrTx, v: Viewer, q: MomentsQuery): Promise<MomentTicket[]> {
  const statuses = q.status ? [q.status] : [...DEFAULT_STATUSES];
  const where = and(
    visibleTicketsWhere(v),
    inArray(tickets.status, statuses),
    within(sql`${tickets.updatedAt}`, momentsWindow(q)),
    q.queueIds?.length ? inArray(tickets.queueId, q.queueIds) : undefined,
    q.userId ? eq(tickets.userId, q.userId) : undefined,
  ) as SQL;
  const ranked = db
    .select({ id: tickets.id, rank: sql<number>`row_number() OVER (PARTITION BY ${tickets.status} ORDER BY ${tickets.updatedAt} DESC)`.as('rank') })
    .from(tickets)
    .where(where)
    .as('ranked');
  const rows = await db
    .select({
      t: tickets,
      user: { id: users.id, name: users.name },
      contact: { id: contacts.id, name: contacts.name, profilePicUrl: contacts.profilePicUrl },
      whatsapp: { id: whatsapps.id, name: whatsapps.name },
      queue: { id: queues.id, name: queues.name, color: queues.color },
    })
    .from(ranked)
    .innerJoin(tickets, eq(tickets.id, ranked.id))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .where(sql`${ranked.rank} <= ${MOMENTS_LIMIT}`)
    .orderBy(desc(tickets.updatedAt));
  return rows.map(({ t, user, contact, whatsapp, queue }) => ({
    id: t.id,
    uuid: t.uuid,
    status: t.status,
    userId: t.userId,
    unreadMessages: t.unreadMessages,
    lastMessage: t.lastMessage,
    updatedAt: t.updatedAt.toISOString(),
    user,
    contact,
    whatsapp,
    queue,
  }));
}

/** `GET /usersMoments`: every user of the company with the open tickets they hold, updated in the window. */
export async function listUserMoments(db: DbOrTx, companyId: number, w: DayWindow): Promise<UserMoment[]> {
  const { rows } = await db.execute<UserMoment>(sql`
    SELECT u.id, u.name, u.online,
      (SELECT count(*)::int FROM tickets t
        WHERE t.company_id = ${companyId} AND t.user_id = u.id AND t.status = 'open' AND ${within(sql`t.updated_at`, w)}) AS tickets
    FROM users u WHERE u.company_id = ${companyId} ORDER BY u.name, u.id`);
  return rows;
}
