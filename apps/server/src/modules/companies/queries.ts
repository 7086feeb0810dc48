import { COMPANY_SETTING_DEFAULTS, type Company, type PageQuery } from '@balcao/contracts';
import { asc, count, eq, ilike, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { containsPattern } from '../../db/search.js';
import { companies, companySettings, plans } from '../../db/schema/index.js';
import { presentPlan } from '../plans/presenter.js';
import { presentCompanySettings } from '../users/queries.js';

export const COMPANIES_PAGE_SIZE = 20;

type CompanyRow = { company: typeof companies.$inferSelect; plan: typeof plans.$inferSelect | null; settings: typeof companySettings.$inferSelect | null };

/** The one place that shapes a company for the API. */
export function presentCompany({ company, plan, settings }: CompanyRow): Company {
  return {
    id: company.id,
    name: company.name,
    email: company.email,
    phone: company.phone,
    document: company.document,
    planId: company.planId,
    plan: plan ? presentPlan(plan) : null,
    status: company.status,
    dueDate: company.dueDate,
    recurrence: company.recurrence as Company['recurrence'],
    paymentMethod: company.paymentMethod,
    street: company.street,
    city: company.city,
    state: company.state,
    schedules: company.schedules,
    companieSettings: settings ? presentCompanySettings(settings) : { ...COMPANY_SETTING_DEFAULTS },
    lastLogin: company.lastLogin?.toISOString() ?? null,
    createdAt: company.createdAt.toISOString(),
    updatedAt: company.updatedAt.toISOString(),
  };
}

function selectCompanies(db: DbOrTx) {
  return db
    .select({ company: companies, plan: plans, settings: companySettings })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .leftJoin(companySettings, eq(companySettings.companyId, companies.id));
}

export async function loadCompany(db: DbOrTx, id: number): Promise<Company | undefined> {
  const [row] = await selectCompanies(db).where(eq(companies.id, id));
  return row ? presentCompany(row) : undefined;
}

export async function listCompanies(db: DbOrTx): Promise<Company[]> {
  return (await selectCompanies(db).orderBy(asc(companies.name))).map(presentCompany);
}

/** Search by name, e-mail or document (case-insensitive), 20 per page. */
export async function pageCompanies(db: DbOrTx, { searchParam, pageNumber = 1 }: PageQuery) {
  const term = containsPattern(searchParam);
  const where = term ? or(ilike(companies.name, term), ilike(companies.email, term), ilike(companies.document, term)) : undefined;
  const [total] = await db.select({ n: count() }).from(companies).where(where);
  const rows = await selectCompanies(db)
    .where(where)
    .orderBy(asc(companies.name), asc(companies.id))
    .limit(COMPANIES_PAGE_SIZE)
    .offset((pageNumber - 1) * COMPANIES_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { companies: rows.map(presentCompany), count: n, hasMore: pageNumber * COMPANIES_PAGE_SIZE < n };
}

/** Another company already has this name (case-insensitive). */
export async function companyNameTaken(db: DbOrTx, name: string, exceptId?: number): Promise<boolean> {
  const rows = await db
    .select({ id: companies.id })
    .from(companies)
    .where(sql`lower(${companies.name}) = lower(${name})`);
  return rows.some((r) => r.id !== exceptId);
}
