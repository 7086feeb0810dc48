import type { Db } from '../src/db/client.js';
import { ticketLogs, ticketRatings, users } from '../src/db/schema/index.js';
import { eq } from 'drizzle-orm';
import { createConnection } from './connections.js';
import { createContact, createQueue, createTicketRow } from './tickets.js';

/**
 * A month whose dashboard is known in advance (docs/dashboard.md): March 2026, tickets at midday
 * UTC so every time zone within ±11 h keeps them on their day. Answers in INSIGHT_EXPECTED.
 */
export const INSIGHT_MONTH = { from: '2026-03-01', to: '2026-03-31' } as const;

const at = (day: string, hhmm: string) => new Date(`2026-${day}T${hhmm}:00Z`);
const plus = (d: Date, minutes: number) => new Date(d.getTime() + minutes * 60_000);

export interface InsightFixture {
  ana: { id: number; name: string };
  bruno: { id: number; name: string };
  queueId: number;
  whatsappId: number;
  /** Ticket ids T1..T8 (T7 the group, T8 outside the month). */
  ids: Record<'T1' | 'T2' | 'T3' | 'T4' | 'T5' | 'T6' | 'T7' | 'T8', number>;
}

/** Seeds the month into `companyId`, with attendants `ana` (online) and `bruno` (existing users of the company). */
export async function seedInsight(db: Db, companyId: number, ana: { id: number; name: string }, bruno: { id: number; name: string }): Promise<InsightFixture> {
  await db.update(users).set({ online: true }).where(eq(users.id, ana.id));
  await db.update(users).set({ online: false }).where(eq(users.id, bruno.id));
  const queue = await createQueue(db, companyId, 'Vendas');
  const conn = await createConnection(db, companyId, { name: 'Página Loja' });
  const ids = {} as InsightFixture['ids'];

  /** A ticket with its contact (created with it), its log lines and its rating. */
  const ticket = async (
    label: keyof InsightFixture['ids'],
    opened: Date,
    set: { status: 'open' | 'pending' | 'closed' | 'nps' | 'group'; userId?: number; acceptedAfter?: number; closedAfter?: number; rate?: number; createdBy?: number; isGroup?: boolean },
  ) => {
    const contact = await createContact(db, companyId, { name: `Cliente ${label}`, createdAt: opened, isGroup: set.isGroup ?? false });
    const row = await createTicketRow(db, {
      companyId,
      contactId: contact.id,
      whatsappId: conn.id,
      queueId: queue.id,
      status: set.status,
      userId: set.userId ?? null,
      isGroup: set.isGroup ?? false,
      lastMessage: `Última mensagem de ${label}`,
      createdAt: opened,
      updatedAt: opened,
      closedAt: set.closedAfter === undefined ? null : plus(opened, set.closedAfter),
    });
    ids[label] = row.id;
    const logs: (typeof ticketLogs.$inferInsert)[] = [{ companyId, ticketId: row.id, type: 'create', userId: set.createdBy ?? null, createdAt: opened }];
    if (set.acceptedAfter !== undefined) logs.push({ companyId, ticketId: row.id, type: 'open', userId: set.userId, createdAt: plus(opened, set.acceptedAfter) });
    if (set.closedAfter !== undefined) logs.push({ companyId, ticketId: row.id, type: 'closed', userId: set.userId, createdAt: plus(opened, set.closedAfter) });
    await db.insert(ticketLogs).values(logs);
    if (set.rate !== undefined) await db.insert(ticketRatings).values({ companyId, ticketId: row.id, userId: set.userId, rate: set.rate, createdAt: plus(opened, (set.closedAfter ?? 0) + 1) });
  };

  // Passive (the customer wrote first), accepted by Ana after 10 min, served 30 min, rated 10.
  await ticket('T1', at('03-10', '12:00'), { status: 'closed', userId: ana.id, acceptedAfter: 10, closedAfter: 40, rate: 10 });
  // Passive, wait 20, service 60, rated 6.
  await ticket('T2', at('03-11', '12:00'), { status: 'closed', userId: ana.id, acceptedAfter: 20, closedAfter: 80, rate: 6 });
  // Passive, Bruno accepted after 30 min, still being served.
  await ticket('T3', at('03-12', '12:00'), { status: 'open', userId: bruno.id, acceptedAfter: 30 });
  // Passive, nobody took it yet.
  await ticket('T4', at('03-12', '13:00'), { status: 'pending' });
  // Active: Bruno started it (wait 0), closed after 50 min, rated 9.
  await ticket('T5', at('03-13', '12:00'), { status: 'closed', userId: bruno.id, createdBy: bruno.id, closedAfter: 50, rate: 9 });
  // Passive, Ana accepted after 5 min, closed and waiting for the customer's rating.
  await ticket('T6', at('03-14', '12:00'), { status: 'nps', userId: ana.id, acceptedAfter: 5, closedAfter: 25 });
  // A group conversation.
  await ticket('T7', at('03-15', '12:00'), { status: 'group', isGroup: true });
  // April: outside the month, counts nowhere.
  await ticket('T8', at('04-02', '12:00'), { status: 'closed', userId: ana.id, acceptedAfter: 1, closedAfter: 2, rate: 0 });
  return { ana, bruno, queueId: queue.id, whatsappId: conn.id, ids };
}

/** The month's counters (users: the caller's company has `usersTotal` users, Ana the only one online). */
export const INSIGHT_EXPECTED = {
  supportHappening: 1,
  supportPending: 1,
  supportFinished: 3,
  supportGroups: 1,
  leads: 6,
  avgWaitTime: 13, // (10 + 20 + 30 + 0 + 5) / 5
  avgSupportTime: 46.67, // (30 + 60 + 50) / 3
  activeTickets: 1,
  passiveTickets: 5,
  npsScore: 33.33, // (2 promoters − 1 detractor) / 3
  npsPromotersPerc: 66.67,
  npsPassivePerc: 0,
  npsDetractorsPerc: 33.33,
  tickets: 6,
  waitRating: 1,
  withoutRating: 2,
  withRating: 3,
  percRating: 50,
  usersOnline: 1,
} as const;
