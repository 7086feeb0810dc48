import {
  APP_VERSION,
  COMPANY_SETTING_DEFAULTS,
  GLOBAL_SETTING_DEFAULTS,
  PLATFORM_COMPANY_ID,
  PLATFORM_DUE_DATE,
} from '@balcao/contracts';
import { eq, sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { generatePassword, hashPassword } from './passwords.js';
import * as schema from './schema/index.js';

const { companies, companySettings, plans, settings, users, versions } = schema;

export interface SeedOptions {
  adminEmail: string;
  adminPassword: string | undefined;
}

export interface SeedResult {
  superEmails: string[];
  /** Set only on the boot that created the super user with a generated password. */
  generatedPassword?: string;
}

/** First-boot data. Safe to run on every boot: it only adds what is missing. */
export async function seedDatabase(db: NodePgDatabase<typeof schema>, opts: SeedOptions): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    let [plan] = await tx.select({ id: plans.id }).from(plans).orderBy(plans.id).limit(1);
    if (!plan) {
      [plan] = await tx
        .insert(plans)
        .values({ name: 'Plano 1', users: 10, connections: 10, queues: 10, amount: '0', isPublic: true })
        .returning({ id: plans.id });
    }

    const [platform] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, PLATFORM_COMPANY_ID));
    if (!platform) {
      await tx.insert(companies).values({
        id: PLATFORM_COMPANY_ID,
        name: 'Balcão',
        email: opts.adminEmail,
        planId: plan?.id,
        status: true,
        dueDate: PLATFORM_DUE_DATE,
        recurrence: 'MENSAL',
      });
      await tx.execute(sql`SELECT setval(pg_get_serial_sequence('companies', 'id'), (SELECT max(id) FROM companies))`);
    }

    let generatedPassword: string | undefined;
    const supers = await tx.select({ email: users.email }).from(users).where(eq(users.super, true));
    if (supers.length === 0) {
      const password = opts.adminPassword ?? generatePassword();
      if (!opts.adminPassword) generatedPassword = password;
      await tx.insert(users).values({
        companyId: PLATFORM_COMPANY_ID,
        name: 'Admin',
        email: opts.adminEmail.toLowerCase(),
        passwordHash: await hashPassword(password),
        profile: 'admin',
        super: true,
      });
      supers.push({ email: opts.adminEmail.toLowerCase() });
    }

    await tx
      .insert(settings)
      .values(Object.entries(GLOBAL_SETTING_DEFAULTS).map(([key, value]) => ({ key, value })))
      .onConflictDoNothing({ target: settings.key });
    await tx
      .insert(companySettings)
      .values({ companyId: PLATFORM_COMPANY_ID, ...COMPANY_SETTING_DEFAULTS })
      .onConflictDoNothing({ target: companySettings.companyId });
    await tx.insert(versions).values({ id: 1, version: APP_VERSION }).onConflictDoNothing({ target: versions.id });

    return { superEmails: supers.map((s) => s.email), generatedPassword };
  });
}
