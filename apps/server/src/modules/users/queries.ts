import { COMPANY_SETTING_DEFAULTS, COMPANY_SETTING_KEYS, type CompanySettings, type SessionUser, type User } from '@balcao/contracts';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { presentPlan } from '../plans/presenter.js';
import { companies, companySettings, plans, queues, userQueues, users } from '../../db/schema/index.js';

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

async function userQueueRefs(db: DbOrTx, companyId: number, userId: number) {
  return db
    .select({ id: queues.id, name: queues.name, color: queues.color })
    .from(userQueues)
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(and(eq(userQueues.companyId, companyId), eq(userQueues.userId, userId)))
    .orderBy(asc(queues.orderQueue), asc(queues.name));
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

export async function loadUser(db: DbOrTx, id: number): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) return undefined;
  return presentUser(row, await userQueueRefs(db, row.companyId, row.id));
}

/** The session user of login, refresh and /auth/me: the user with its company, plan and flat settings. */
export async function loadSessionUser(db: DbOrTx, id: number): Promise<SessionUser | undefined> {
  const user = await loadUser(db, id);
  if (!user) return undefined;
  const [company] = await db
    .select({ company: companies, plan: plans })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, user.companyId));
  if (!company) return undefined;
  const [settingsRow] = await db.select().from(companySettings).where(eq(companySettings.companyId, user.companyId));
  return {
    ...user,
    company: {
      id: company.company.id,
      name: company.company.name,
      dueDate: company.company.dueDate,
      document: company.company.document,
      companieSettings: presentCompanySettings(settingsRow),
      plan: company.plan ? presentPlan(company.plan) : null,
    },
  };
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
