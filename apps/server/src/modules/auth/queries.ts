import { and, eq, gt, isNotNull, isNull, lt, sql, type Placeholder } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { companies, plans, refreshTokens, settings, users } from '../../db/schema/index.js';

export async function insertRefreshToken(db: DbOrTx, row: { userId: number; companyId: number; jti: string; family: string; expiresAt: Date }) {
  await db.insert(refreshTokens).values(row);
}

/** Marks a refresh token used, atomically: only one caller ever gets its family back for a given jti. */
export async function consumeRefreshToken(db: DbOrTx, jti: string, userId: number): Promise<string | undefined> {
  const [row] = await db
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
    .returning({ family: refreshTokens.family });
  return row?.family;
}

/**
 * The family of a token presented again after it was used (theft: the thief or the owner
 * holds a rotated-out token). A reuse within `graceMs` of the use is two tabs racing with
 * one cookie, not theft.
 */
export async function reusedTokenFamily(db: DbOrTx, jti: string, userId: number, graceMs: number) {
  const [row] = await db
    .select({ family: refreshTokens.family, companyId: refreshTokens.companyId })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.jti, jti),
        eq(refreshTokens.userId, userId),
        isNotNull(refreshTokens.usedAt),
        lt(refreshTokens.usedAt, sql`now() - make_interval(secs => ${graceMs / 1000})`),
      ),
    );
  return row;
}

/** Revokes every token of a family, used ones included: access tokens naming it die with it. */
export async function revokeFamily(db: DbOrTx, companyId: number, family: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.companyId, companyId), eq(refreshTokens.family, family), isNull(refreshTokens.revokedAt)));
}

/** SQL: true when the access token's family was revoked (after a reuse). */
export const familyRevokedSql = (companyId: unknown, family: string | Placeholder | undefined) =>
  family === undefined
    ? sql<boolean>`false`
    : sql<boolean>`exists (select 1 from ${refreshTokens} where ${refreshTokens.companyId} = ${companyId} and ${refreshTokens.family} = ${family} and ${refreshTokens.revokedAt} is not null)`;

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

export async function familyRevoked(db: DbOrTx, companyId: number, family: string): Promise<boolean> {
  const [row] = await db.select({ revoked: familyRevokedSql(companyId, family) }).from(sql`(select 1) as one`);
  return row?.revoked === true;
}

/**
 * What authenticating an access token needs, in one query: the user row and whether the token's family was
 * revoked (no family: null, which matches no row). Every authenticated request runs it, so it is built once
 * per database handle and runs as a named prepared statement (no query building, parsing or planning).
 */
function prepareTokenUser(db: DbOrTx) {
  return db
    .select({
      id: users.id,
      companyId: users.companyId,
      profile: users.profile,
      super: users.super,
      tokenVersion: users.tokenVersion,
      familyRevoked: familyRevokedSql(users.companyId, sql.placeholder('family')),
      dueDate: companies.dueDate,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('auth_token_user');
}
const tokenUserQueries = new WeakMap<DbOrTx, ReturnType<typeof prepareTokenUser>>();

export async function findTokenUser(db: DbOrTx, id: number, family: string | undefined) {
  let query = tokenUserQueries.get(db);
  if (!query) tokenUserQueries.set(db, (query = prepareTokenUser(db)));
  const [row] = await query.execute({ id, family: family ?? null });
  return row;
}
