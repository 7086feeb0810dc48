import type { SessionUser, User } from '@balcao/contracts';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { companies, companySettings, plans, queues, userQueues, users } from '../../db/schema/index.js';
import { presentPlan } from '../plans/presenter.js';
import { presentCompanySettings, presentUser } from '../users/queries.js';
import { familyRevokedSql } from './queries.js';

export interface LoadedSession {
  user: SessionUser;
  tokenVersion: number;
  /** The access token's refresh family was revoked (a reused refresh token). */
  familyRevoked: boolean;
}

/**
 * The session user of login, refresh and /auth/me (the user, its queues, company, plan and
 * flat settings) with what authenticating its token needs, in one query: /auth/me runs on
 * every page load.
 */
export async function loadSession(db: DbOrTx, userId: number, family?: string): Promise<LoadedSession | undefined> {
  const [row] = await db
    .select({
      user: users,
      company: companies,
      plan: plans,
      settings: companySettings,
      queues: sql<User['queues']>`coalesce((
        select json_agg(json_build_object('id', ${queues.id}, 'name', ${queues.name}, 'color', ${queues.color}) order by ${queues.orderQueue}, ${queues.name})
        from ${userQueues} join ${queues} on ${queues.id} = ${userQueues.queueId}
        where ${userQueues.userId} = ${users.id}), '[]'::json)`,
      familyRevoked: familyRevokedSql(users.companyId, family),
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(plans, eq(plans.id, companies.planId))
    .leftJoin(companySettings, eq(companySettings.companyId, users.companyId))
    .where(eq(users.id, userId));
  if (!row) return undefined;
  return {
    tokenVersion: row.user.tokenVersion,
    familyRevoked: row.familyRevoked,
    user: {
      ...presentUser(row.user, row.queues),
      company: {
        id: row.company.id,
        name: row.company.name,
        dueDate: row.company.dueDate,
        document: row.company.document,
        companieSettings: presentCompanySettings(row.settings ?? undefined),
        plan: row.plan ? presentPlan(row.plan) : null,
      },
    },
  };
}
