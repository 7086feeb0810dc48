import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, plans } from '../db/schema/index.js';
import { createCompanyWithAdmin, createTestApp, type TestApp } from '../../test/helpers.js';
import type { AuthUser } from './auth.js';
import { requirePlanFlag } from './plan.js';

let t: TestApp;
let limited: AuthUser;
let full: AuthUser;
let planless: AuthUser;
beforeAll(async () => {
  t = await createTestApp();
  const [noKanban] = await t.db.insert(plans).values({ name: 'Sem Kanban', useKanban: false, useSchedules: true }).returning();
  const asCaller = (c: Awaited<ReturnType<typeof createCompanyWithAdmin>>): AuthUser => ({ id: c.admin.id, companyId: c.company.id, profile: 'admin', super: false });
  limited = asCaller(await createCompanyWithAdmin(t.db, { planId: noKanban?.id }));
  full = asCaller(await createCompanyWithAdmin(t.db));
  const none = await createCompanyWithAdmin(t.db);
  await t.db.update(companies).set({ planId: null }).where(eq(companies.id, none.company.id));
  planless = asCaller(none);
});
afterAll(() => t.close());

/** The guard as a route runs it: after `authenticate`, on a request of this app. */
const guard = (flag: Parameters<typeof requirePlanFlag>[0], auth: AuthUser) =>
  requirePlanFlag(flag)({ auth, server: t.app } as unknown as FastifyRequest);

describe('requirePlanFlag', () => {
  it('lets a company through when its plan has the feature', async () => {
    await expect(guard('useSchedules', limited)).resolves.toBeUndefined();
    await expect(guard('useKanban', full)).resolves.toBeUndefined();
  });

  it('denies with 403 ERR_PLAN_FEATURE_DISABLED when the plan lacks it, or there is no plan', async () => {
    for (const [flag, auth] of [['useKanban', limited], ['useWhatsapp', planless]] as const) {
      await expect(guard(flag, auth)).rejects.toMatchObject({ code: 'ERR_PLAN_FEATURE_DISABLED', status: 403 });
    }
  });
});
