import type { Plan, createPlanBody, updatePlanBody } from '@balcao/contracts';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { companies, plans } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { emitToSuperUsers } from '../companies/super-events.js';
import { presentPlan } from './presenter.js';

const notFound = () => new AppError('ERR_NO_PLAN_FOUND', 404);

async function assertNameFree(ctx: AppContext, name: string, exceptId?: number): Promise<void> {
  const rows = await ctx.db.select({ id: plans.id }).from(plans).where(sql`lower(${plans.name}) = lower(${name})`);
  if (rows.some((r) => r.id !== exceptId)) throw new AppError('ERR_VALIDATION', 400, 'a plan with this name exists', [{ path: 'name', message: 'already exists' }]);
}

export async function listAllPlans(ctx: AppContext): Promise<Plan[]> {
  return (await ctx.db.select().from(plans).orderBy(asc(plans.amount), asc(plans.id))).map(presentPlan);
}

export async function getPlan(ctx: AppContext, id: number): Promise<Plan> {
  const [row] = await ctx.db.select().from(plans).where(eq(plans.id, id));
  if (!row) throw notFound();
  return presentPlan(row);
}

export async function createPlan(ctx: AppContext, body: z.output<typeof createPlanBody>): Promise<Plan> {
  await assertNameFree(ctx, body.name);
  const [row] = await ctx.db.insert(plans).values(body).returning();
  if (!row) throw new AppError('ERR_INTERNAL', 500);
  const plan = presentPlan(row);
  await emitToSuperUsers(ctx, 'plan', { action: 'create', record: plan });
  return plan;
}

export async function updatePlan(ctx: AppContext, id: number, body: z.output<typeof updatePlanBody>): Promise<Plan> {
  if (body.name !== undefined) await assertNameFree(ctx, body.name, id);
  const [row] = Object.keys(body).length > 0 ? await ctx.db.update(plans).set(body).where(eq(plans.id, id)).returning() : await ctx.db.select().from(plans).where(eq(plans.id, id));
  if (!row) throw notFound();
  const plan = presentPlan(row);
  await emitToSuperUsers(ctx, 'plan', { action: 'update', record: plan });
  return plan;
}

/** A plan still assigned to a company is kept (409 ERR_PLAN_IN_USE): its companies would lose every limit and feature. */
export async function deletePlan(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [used] = await tx.select({ n: count() }).from(companies).where(eq(companies.planId, id));
    if ((used?.n ?? 0) > 0) throw new AppError('ERR_PLAN_IN_USE', 409);
    const deleted = await tx.delete(plans).where(eq(plans.id, id)).returning({ id: plans.id });
    if (deleted.length === 0) throw notFound();
  });
  await emitToSuperUsers(ctx, 'plan', { action: 'delete', id });
}
