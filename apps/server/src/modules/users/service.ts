import type { CreateUserBody, User } from '@balcao/contracts';
import { createUserBody } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { hashPassword } from '../../db/passwords.js';
import { companies, plans, userQueues, users } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { companyQueueIds, countCompanyUsers, emailExists, loadUser } from './queries.js';

export type { CreateUserBody };

/** Creates a user in the caller's company, within the plan's user limit. */
export async function createUser(ctx: AppContext, by: AuthUser, body: z.output<typeof createUserBody>): Promise<User> {
  const { password, queueIds, ...fields } = body;
  const passwordHash = await hashPassword(password);
  const companyId = by.companyId;

  const userId = await ctx.db.transaction(async (tx) => {
    // Lock the company row so two concurrent creations cannot both pass the limit.
    const [company] = await tx
      .select({ id: companies.id, maxUsers: plans.users })
      .from(companies)
      .leftJoin(plans, eq(plans.id, companies.planId))
      .where(eq(companies.id, companyId))
      .for('update', { of: companies });
    if (!company) throw new AppError('ERR_NO_COMPANY_FOUND', 404);
    if (company.maxUsers !== null && (await countCompanyUsers(tx, companyId)) >= company.maxUsers) {
      throw new AppError('ERR_USER_LIMIT_REACHED', 403);
    }
    if (await emailExists(tx, body.email)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS', 409);
    const ownQueues = await companyQueueIds(tx, companyId, [...new Set(queueIds)]);
    if (ownQueues.length !== new Set(queueIds).size) {
      throw new AppError('ERR_VALIDATION', 400, 'unknown queue', [{ path: 'queueIds', message: 'unknown queue' }]);
    }

    const [row] = await tx
      .insert(users)
      .values({ ...fields, companyId, passwordHash, super: false, email: body.email.toLowerCase() })
      .returning({ id: users.id });
    if (!row) throw new AppError('ERR_INTERNAL', 500);
    if (ownQueues.length > 0) {
      await tx.insert(userQueues).values(ownQueues.map((queueId) => ({ userId: row.id, queueId, companyId })));
    }
    return row.id;
  });

  const user = await loadUser(ctx.db, userId);
  if (!user) throw new AppError('ERR_INTERNAL', 500);
  ctx.realtime.emitToCompany(companyId, 'user', { action: 'create', user });
  return user;
}
