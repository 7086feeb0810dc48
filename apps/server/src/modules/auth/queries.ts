import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { companies, plans, refreshTokens, settings, users } from '../../db/schema/index.js';

export async function insertRefreshToken(db: DbOrTx, row: { userId: number; companyId: number; jti: string; expiresAt: Date }) {
  await db.insert(refreshTokens).values(row);
}

/** Marks a refresh token used, atomically: only one caller ever gets `true` for a given jti. */
export async function consumeRefreshToken(db: DbOrTx, jti: string, userId: number): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.jti, jti),
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: refreshTokens.id });
  return rows.length > 0;
}

export async function revokeUserRefreshTokens(db: DbOrTx, userId: number): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), isNull(refreshTokens.usedAt)));
}

export async function bumpTokenVersion(db: DbOrTx, userId: number): Promise<void> {
  await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId));
}

export async function touchCompanyLastLogin(db: DbOrTx, companyId: number): Promise<void> {
  await db.update(companies).set({ lastLogin: sql`now()` }).where(eq(companies.id, companyId));
}

export async function globalSettingValue(db: DbOrTx, key: string): Promise<string | null | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value;
}

export async function findPlan(db: DbOrTx, id: number) {
  const [row] = await db.select({ id: plans.id, isPublic: plans.isPublic }).from(plans).where(eq(plans.id, id));
  return row;
}

export async function companyNameExists(db: DbOrTx, name: string): Promise<boolean> {
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(sql`lower(${companies.name}) = lower(${name})`);
  return row !== undefined;
}
