import { COMPANY_SETTING_DEFAULTS, COMPANY_SETTING_KEYS, type CompanySettings, type User } from '@balcao/contracts';
import { and, asc, count, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { containsPattern } from '../../db/search.js';
import { companies, companySettings, queues, userQueues, users } from '../../db/schema/index.js';

type UserRow = typeof users.$inferSelect;
type CompanySettingsRow = typeof companySettings.$inferSelect;

export async function findAuthUser(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: users.id, companyId: users.companyId, profile: users.profile, super: users.super, tokenVersion: users.tokenVersion })
    .from(users)
    .where(eq(users.id, id));
  return row;
}

export async function findUserByEmail(db: DbOrTx, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  return row;
}

export async function emailExists(db: DbOrTx, email: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase()));
  return row !== undefined;
}

export async function countCompanyUsers(db: DbOrTx, companyId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.companyId, companyId));
  return row?.n ?? 0;
}

/** Of `queueIds`, those that belong to the company. */
export async function companyQueueIds(db: DbOrTx, companyId: number, queueIds: number[]): Promise<number[]> {
  if (queueIds.length === 0) return [];
  const rows = await db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), inArray(queues.id, queueIds)));
  return rows.map((r) => r.id);
}

/** The one place that shapes a user for the API. */
export function presentUser(row: UserRow, queueRefs: User['queues']): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    profile: row.profile,
    super: row.super,
    companyId: row.companyId,
    whatsappId: row.whatsappId,
    queues: queueRefs,
    startWork: row.startWork,
    endWork: row.endWork,
    maxOpenTickets: row.maxOpenTickets,
    farewellMessage: row.farewellMessage,
    profileImage: row.profileImage,
    defaultTheme: row.defaultTheme,
    defaultMenu: row.defaultMenu,
    defaultTicketsManagerWidth: row.defaultTicketsManagerWidth,
    allTicket: row.allTicket,
    allHistoric: row.allHistoric,
    allUserChat: row.allUserChat,
    userClosePendingTicket: row.userClosePendingTicket,
    showDashboard: row.showDashboard,
    allowGroup: row.allowGroup,
    allowRealTime: row.allowRealTime,
    allowConnections: row.allowConnections,
    online: row.online,
    color: row.color,
  };
}

export function presentCompanySettings(row: CompanySettingsRow | undefined): CompanySettings {
  const flat = { ...COMPANY_SETTING_DEFAULTS } as CompanySettings;
  if (row) for (const key of COMPANY_SETTING_KEYS) flat[key] = row[key];
  return flat;
}

export async function loadCompanySettings(db: DbOrTx, companyId: number): Promise<CompanySettings | undefined> {
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!company) return undefined;
  const [row] = await db.select().from(companySettings).where(eq(companySettings.companyId, companyId));
  return presentCompanySettings(row);
}

/** Users with their queues, in the order given, in two queries whatever their number. */
async function presentUsers(db: DbOrTx, rows: UserRow[]): Promise<User[]> {
  if (rows.length === 0) return [];
  const links = await db
    .select({ userId: userQueues.userId, id: queues.id, name: queues.name, color: queues.color })
    .from(userQueues)
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(inArray(userQueues.userId, rows.map((r) => r.id)))
    .orderBy(asc(queues.orderQueue), asc(queues.name));
  return rows.map((row) => presentUser(row, links.filter((l) => l.userId === row.id).map(({ id, name, color }) => ({ id, name, color }))));
}

export const USERS_PAGE_SIZE = 20;

/** `GET /users/`: the company's users by name, searched in name and e-mail, 20 per page. */
export async function pageUsers(db: DbOrTx, companyId: number, searchParam: string | undefined, pageNumber: number) {
  const term = containsPattern(searchParam);
  const where = and(eq(users.companyId, companyId), term ? or(ilike(users.name, term), ilike(users.email, term)) : undefined);
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(asc(users.name), asc(users.id))
    .limit(USERS_PAGE_SIZE)
    .offset((pageNumber - 1) * USERS_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { users: await presentUsers(db, rows), count: n, hasMore: pageNumber * USERS_PAGE_SIZE < n };
}

export async function listCompanyUsers(db: DbOrTx, companyId: number): Promise<User[]> {
  return presentUsers(db, await db.select().from(users).where(eq(users.companyId, companyId)).orderBy(asc(users.name), asc(users.id)));
}

/** A user row of the company, or undefined (another company's id reads as absent). */
export async function findCompanyUser(db: DbOrTx, companyId: number, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(and(eq(users.companyId, companyId), eq(users.id, id)));
  return row;
}

/** Admins of the company other than `exceptId`. */
export async function countOtherAdmins(db: DbOrTx, companyId: number, exceptId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.profile, 'admin'), ne(users.id, exceptId)));
  return row?.n ?? 0;
}

export async function userQueueIds(db: DbOrTx, userId: number): Promise<number[]> {
  return (await db.select({ id: userQueues.queueId }).from(userQueues).where(eq(userQueues.userId, userId))).map((r) => r.id);
}

export async function loadUser(db: DbOrTx, id: number): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) return undefined;
  const [user] = await presentUsers(db, [row]);
  return user;
}

/** Marks a user online/offline; true when the flag actually changed. */
export async function setOnline(db: DbOrTx, id: number, online: boolean): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ online })
    .where(and(eq(users.id, id), sql`${users.online} IS DISTINCT FROM ${online}`))
    .returning({ id: users.id });
  return rows.length > 0;
}
