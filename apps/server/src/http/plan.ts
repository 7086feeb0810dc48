import type { ErrorCode, PlanFlag } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { DbOrTx, Tx } from '../db/client.js';
import { companies, plans } from '../db/schema/index.js';
import { caller, permissionGuard } from './auth.js';
import { AppError } from './errors.js';

async function companyPlan(db: DbOrTx, companyId: number) {
  const [row] = await db
    .select({ plan: plans })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId));
  return row?.plan;
}

/** Whether the company's plan has `flag` (a company without a plan has none): for run-time behaviours, which skip a feature instead of refusing. */
export async function hasPlanFlag(db: DbOrTx, companyId: number, flag: PlanFlag): Promise<boolean> {
  return !!(await companyPlan(db, companyId))?.[flag];
}

/** Throws 403 ERR_PLAN_FEATURE_DISABLED unless the company's plan has `flag`. */
export async function assertPlanFlag(db: DbOrTx, companyId: number, flag: PlanFlag): Promise<void> {
  if (!(await hasPlanFlag(db, companyId, flag))) throw new AppError('ERR_PLAN_FEATURE_DISABLED', 403, `the company's plan does not include ${flag}`);
}

/**
 * Route guard for plan features, after `authenticate`:
 * `{ onRequest: authenticate, preHandler: requirePlanFlag('useSchedules') }`.
 */
export function requirePlanFlag(flag: PlanFlag) {
  return permissionGuard(async function planFlagGuard(req: FastifyRequest): Promise<void> {
    await assertPlanFlag(req.server.ctx.db, caller(req).companyId, flag);
  });
}

export type PlanLimit = 'users' | 'connections' | 'queues';

const LIMIT_ERRORS: Record<PlanLimit, ErrorCode> = {
  users: 'ERR_USER_LIMIT_REACHED',
  connections: 'ERR_CONNECTION_LIMIT_REACHED',
  queues: 'ERR_QUEUE_LIMIT_REACHED',
};

/**
 * Inside the creating transaction: locks the company row, so concurrent creations
 * cannot both pass, then throws 403 ERR_{USER,CONNECTION,QUEUE}_LIMIT_REACHED when the company
 * already has as many as its plan allows (no plan allows none).
 */
export async function assertPlanLimit(tx: Tx, companyId: number, limit: PlanLimit, countExisting: () => Promise<number>): Promise<void> {
  const [row] = await tx
    .select({ id: companies.id, max: plans[limit] })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    .for('update', { of: companies });
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND', 404);
  if ((await countExisting()) >= (row.max ?? 0)) throw new AppError(LIMIT_ERRORS[limit], 403);
}
