import { count, eq } from 'drizzle-orm';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { createDb, createPool } from './client.js';
import { migrateAndSeed } from './migrate.js';
import { verifyPassword } from './passwords.js';
import { companies, companySettings, plans, settings, users, versions } from './schema/index.js';

const name = `seed_${randomBytes(4).toString('hex')}`;
const url = inject('pgAdminUrl').replace(/\/postgres$/, `/${name}`);
let pool: pg.Pool | undefined;
afterAll(() => pool?.end());

describe('first-boot seed', () => {
  it('creates company 1, the plan, the super user with a generated password once, settings and version; reruns change nothing', async () => {
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();

    const first = await migrateAndSeed(url, { adminEmail: 'Root@Example.com', adminPassword: undefined });
    expect(first.generatedPassword).toMatch(/^[\w-]{20,}$/);
    expect(first.superEmails).toEqual(['root@example.com']);
    const second = await migrateAndSeed(url, { adminEmail: 'root@example.com', adminPassword: 'ignored-now' });
    expect(second.generatedPassword).toBeUndefined();

    pool = createPool(url, 2);
    const db = createDb(pool);
    const [company] = await db.select().from(companies).where(eq(companies.id, 1));
    expect(company).toMatchObject({ dueDate: '2999-12-31', status: true });
    const [plan] = await db.select().from(plans);
    expect(plan).toMatchObject({ name: 'Plano 1', isPublic: true, useKanban: true, useOpenAi: true });
    const [root] = await db.select().from(users);
    expect(root).toMatchObject({ super: true, profile: 'admin', companyId: 1 });
    expect(await verifyPassword(root!.passwordHash, first.generatedPassword!)).toBe(true);
    expect((await db.select({ n: count() }).from(users))[0]?.n).toBe(1);
    expect((await db.select({ n: count() }).from(settings))[0]?.n).toBe(9);
    expect((await db.select({ n: count() }).from(companySettings))[0]?.n).toBe(1);
    expect((await db.select().from(versions))[0]?.version).toBe('2.0.4-v3');
    // The next company gets id 2.
    const [next] = await db.insert(companies).values({ name: 'Second' }).returning({ id: companies.id });
    expect(next?.id).toBe(2);
  });
});
