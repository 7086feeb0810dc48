import { and, count, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { twoFactorPolicies, userRecoveryCodes, userTwoFactor } from '../../db/schema/index.js';

export async function findTwoFactor(db: DbOrTx, userId: number) {
  const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
  return row;
}

/** Starts (or restarts) an enrolment: a new pending secret replaces any earlier one. */
export async function savePendingSecret(db: DbOrTx, row: { userId: number; companyId: number; secretEncrypted: string }) {
  await db
    .insert(userTwoFactor)
    .values({ ...row, enabledAt: null, lastUsedStep: null })
    .onConflictDoUpdate({ target: userTwoFactor.userId, set: { secretEncrypted: row.secretEncrypted, enabledAt: null, lastUsedStep: null } });
}

/** Records `step` as used, atomically: false when it (or a later step) was already used. */
export async function useStep(db: DbOrTx, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(userTwoFactor)
    .set({ lastUsedStep: step })
    .where(and(eq(userTwoFactor.userId, userId), or(isNull(userTwoFactor.lastUsedStep), lt(userTwoFactor.lastUsedStep, step))))
    .returning({ userId: userTwoFactor.userId });
  return rows.length === 1;
}

export async function enableTwoFactor(db: DbOrTx, userId: number) {
  await db.update(userTwoFactor).set({ enabledAt: sql`now()` }).where(eq(userTwoFactor.userId, userId));
}

export async function deleteTwoFactor(db: DbOrTx, companyId: number, userId: number) {
  await db.delete(userTwoFactor).where(and(eq(userTwoFactor.companyId, companyId), eq(userTwoFactor.userId, userId)));
  await db.delete(userRecoveryCodes).where(and(eq(userRecoveryCodes.companyId, companyId), eq(userRecoveryCodes.userId, userId)));
}

export async function replaceRecoveryCodes(db: DbOrTx, user: { id: number; companyId: number }, hashes: string[]) {
  await db.delete(userRecoveryCodes).where(and(eq(userRecoveryCodes.companyId, user.companyId), eq(userRecoveryCodes.userId, user.id)));
  await db.insert(userRecoveryCodes).values(hashes.map((codeHash) => ({ userId: user.id, companyId: user.companyId, codeHash })));
}

/** Marks an unused code used, atomically: only one caller ever gets true for a code. */
export async function consumeRecoveryCode(db: DbOrTx, userId: number, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(userRecoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(userRecoveryCodes.userId, userId), eq(userRecoveryCodes.codeHash, codeHash), isNull(userRecoveryCodes.usedAt)))
    .returning({ id: userRecoveryCodes.id });
  return rows.length === 1;
}

export async function countRecoveryCodesLeft(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}

export async function twoFactorRequired(db: DbOrTx, companyId: number): Promise<boolean> {
  const [row] = await db.select({ required: twoFactorPolicies.required }).from(twoFactorPolicies).where(eq(twoFactorPolicies.companyId, companyId));
  return row?.required ?? false;
}

export async function setTwoFactorRequired(db: DbOrTx, companyId: number, required: boolean) {
  await db
    .insert(twoFactorPolicies)
    .values({ companyId, required })
    .onConflictDoUpdate({ target: twoFactorPolicies.companyId, set: { required, updatedAt: sql`now()` } });
}

export type SecondFactorDue = 'code' | 'setup';

/** After a right password: a code when the user has two-factor login on, a setup when the company requires it and the user has none. */
export async function secondFactorDue(db: DbOrTx, user: { id: number; companyId: number }): Promise<SecondFactorDue | undefined> {
  if ((await findTwoFactor(db, user.id))?.enabledAt) return 'code';
  return (await twoFactorRequired(db, user.companyId)) ? 'setup' : undefined;
}
