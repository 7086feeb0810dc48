import {
  COMPANY_SETTING_DEFAULTS,
  PLATFORM_COMPANY_ID,
  defaultAdminName,
  localIsoDate,
  renewDueDate,
  type Company,
  type CompanyPlan,
  type WeekSchedule,
  type createCompanyBody,
  type updateCompanyBody,
} from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import { hashChosenPassword } from '../auth/password-policy.js';
import { ensureCompanyInvoice } from '../billing/invoices.js';
import { companies, companySettings, plans, users } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { queueCompanyMediaDeletion } from '../../storage/deletion.js';
import { writeCompanySettings } from '../settings/company-settings.js';
import { emailExists } from '../users/queries.js';
import { companyNameTaken, loadCompany } from './queries.js';
import { emitToSuperUsers } from './super-events.js';

type CreateBody = z.output<typeof createCompanyBody>;
type UpdateBody = z.output<typeof updateCompanyBody>;

const notFound = () => new AppError('ERR_NO_COMPANY_FOUND', 404);

/** A company's own users and the super user may read it; anyone else gets 403, never data. */
function assertMayRead(by: AuthUser, companyId: number): void {
  if (!by.super && by.companyId !== companyId) throw new AppError('ERR_NO_PERMISSION', 403);
}

async function assertPlanExists(tx: Tx, planId: number): Promise<void> {
  const [plan] = await tx.select({ id: plans.id }).from(plans).where(eq(plans.id, planId));
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND', 400);
}

async function reload(ctx: AppContext, id: number): Promise<Company> {
  const company = await loadCompany(ctx.db, id);
  if (!company) throw notFound();
  return company;
}

export async function getCompany(ctx: AppContext, by: AuthUser, id: number): Promise<Company> {
  assertMayRead(by, id);
  return reload(ctx, id);
}

/** The company with its plan nested, the plan's fields also at the top (`GET /companies/listPlan/{companyId}`). */
export async function companyPlanOf(ctx: AppContext, by: AuthUser, companyId: number): Promise<CompanyPlan> {
  assertMayRead(by, companyId);
  const { plan, ...company } = await reload(ctx, companyId);
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND', 404);
  return { ...company, ...plan, plan };
}

/**
 * One transaction: the company, its settings row and its first admin (with the company's
 * e-mail and the given password; named `adminName`, else the e-mail's part before @, since
 * the top bar greets the user by name). Without a due date the
 * company gets one recurrence period from today.
 */
export async function createCompany(ctx: AppContext, body: CreateBody, today = localIsoDate(new Date())): Promise<Company> {
  const { password, campaignsEnabled, adminName, ...fields } = body;
  const passwordHash = await hashChosenPassword(password);
  const recurrence = fields.recurrence ?? 'MENSAL';
  const id = await ctx.db.transaction(async (tx) => {
    await assertPlanExists(tx, fields.planId);
    if (await companyNameTaken(tx, fields.name)) throw new AppError('ERR_COMPANY_NAME_EXISTS', 409);
    if (await emailExists(tx, fields.email)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS', 409);
    const [company] = await tx
      .insert(companies)
      .values({ ...fields, recurrence, dueDate: fields.dueDate ?? renewDueDate(null, recurrence, today) })
      .returning({ id: companies.id });
    if (!company) throw new AppError('ERR_INTERNAL', 500);
    await tx.insert(companySettings).values({ companyId: company.id, ...COMPANY_SETTING_DEFAULTS, ...(campaignsEnabled ? { campaignsEnabled } : {}) });
    const name = adminName ?? defaultAdminName(fields.email);
    await tx.insert(users).values({ companyId: company.id, name, email: fields.email, passwordHash, profile: 'admin' });
    await ensureCompanyInvoice(tx, company.id);
    return company.id;
  });
  const company = await reload(ctx, id);
  await emitToSuperUsers(ctx, 'company', { action: 'create', record: company });
  return company;
}

export async function updateCompany(ctx: AppContext, id: number, body: UpdateBody): Promise<Company> {
  const { password, campaignsEnabled, ...fields } = body;
  const passwordHash = password ? await hashChosenPassword(password) : undefined;
  await ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(companies).where(eq(companies.id, id)).for('update');
    if (!current) throw notFound();
    // Company 1 is the platform itself: it never expires and is never switched off.
    if (id === PLATFORM_COMPANY_ID && ((fields.dueDate !== undefined && fields.dueDate !== current.dueDate) || fields.status === false)) {
      throw new AppError('ERR_VALIDATION', 400, 'the platform company never expires', [{ path: 'dueDate', message: 'the platform company never expires' }]);
    }
    if (fields.planId !== undefined) await assertPlanExists(tx, fields.planId);
    if (fields.name !== undefined && (await companyNameTaken(tx, fields.name, id))) throw new AppError('ERR_COMPANY_NAME_EXISTS', 409);
    if (Object.keys(fields).length > 0) await tx.update(companies).set(fields).where(eq(companies.id, id));
    // A new plan or period prices the open invoice at once (docs/billing.md).
    if (fields.planId !== undefined || fields.dueDate !== undefined) await ensureCompanyInvoice(tx, id);
    if (campaignsEnabled) await writeCompanySettings(tx, id, { campaignsEnabled });
    if (passwordHash) {
      const email = fields.email ?? current.email;
      if (email) await tx.update(users).set({ passwordHash }).where(and(eq(users.companyId, id), eq(users.email, email)));
    }
  });
  const company = await reload(ctx, id);
  await emitToSuperUsers(ctx, 'company', { action: 'update', record: company });
  return company;
}

/** Adds one recurrence period to the due date (`POST /companies/{id}/renew`), with the function the web app shows. */
export async function renewCompany(ctx: AppContext, id: number, today = localIsoDate(new Date())): Promise<Company> {
  if (id === PLATFORM_COMPANY_ID) throw new AppError('ERR_VALIDATION', 400, 'the platform company never expires');
  await ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(companies).where(eq(companies.id, id)).for('update');
    if (!current) throw notFound();
    const dueDate = renewDueDate(current.dueDate, current.recurrence as Company['recurrence'], today);
    await tx.update(companies).set({ dueDate }).where(eq(companies.id, id));
  });
  const company = await reload(ctx, id);
  await emitToSuperUsers(ctx, 'company', { action: 'update', record: company });
  return company;
}

/**
 * Deletes the company and, by cascade, every row of it (users, queues, settings, …),
 * queues the removal of its media (folder DATA_DIR/public/company{id}/, objects under company{id}/ in the bucket), and closes its open sockets.
 */
export async function deleteCompany(ctx: AppContext, id: number): Promise<void> {
  if (id === PLATFORM_COMPANY_ID) throw new AppError('ERR_NO_PERMISSION', 403, 'the platform company cannot be deleted');
  const boss = ctx.boss;
  await ctx.db.transaction(async (tx) => {
    const deleted = await tx.delete(companies).where(eq(companies.id, id)).returning({ id: companies.id });
    if (deleted.length === 0) throw notFound();
    // Its files go through a durable job (storage/deletion.ts): a bucket may hold many objects.
    if (boss) await queueCompanyMediaDeletion(boss, tx, ctx.config.mediaDeleteRetrySeconds, id);
  });
  // A process without a job queue (tools, most tests) removes them in the background, drained before shutdown.
  if (!boss) ctx.background.run('company-media', () => ctx.storage.removeCompany(id));
  await ctx.events.publish({ type: 'company.deleted', companyId: id });
  await emitToSuperUsers(ctx, 'company', { action: 'delete', id });
}

/** Opening hours (`PUT /companies/{id}/schedules`): the company's admins, or the super user. */
export async function setCompanySchedules(ctx: AppContext, by: AuthUser, id: number, schedules: WeekSchedule): Promise<Company> {
  assertMayRead(by, id);
  const updated = await ctx.db.update(companies).set({ schedules }).where(eq(companies.id, id)).returning({ id: companies.id });
  if (updated.length === 0) throw notFound();
  const company = await reload(ctx, id);
  await emitToSuperUsers(ctx, 'company', { action: 'update', record: company });
  return company;
}
