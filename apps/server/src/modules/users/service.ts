import { ADMIN_ONLY_USER_FIELDS, type User, type createUserBody, type updateUserBody } from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import { hashChosenPassword } from '../auth/password-policy.js';
import { companies, userQueues, users, whatsapps } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { assertPlanLimit } from '../../http/plan.js';
import { companyQueueIds, countCompanyUsers, countOtherAdmins, emailExists, findCompanyUser, findUserByEmail, loadUser, userQueueIds } from './queries.js';

type CreateBody = z.output<typeof createUserBody>;
type UpdateBody = z.output<typeof updateUserBody>;

const notFound = () => new AppError('ERR_NO_USER_FOUND', 404);
const noPermission = () => new AppError('ERR_NO_PERMISSION', 403);
const isAdmin = (by: AuthUser) => by.profile === 'admin' || by.super;

const unknownRef = (path: string) => new AppError('ERR_VALIDATION', 400, `unknown ${path}`, [{ path, message: `unknown ${path}` }]);

/** queueIds and whatsappId must name the company's own records (another company's id is "unknown"). */
async function assertOwnRefs(tx: Tx, companyId: number, body: { queueIds?: number[]; whatsappId?: number | null }): Promise<void> {
  if (body.queueIds) {
    const wanted = [...new Set(body.queueIds)];
    if ((await companyQueueIds(tx, companyId, wanted)).length !== wanted.length) throw unknownRef('queueIds');
  }
  if (body.whatsappId != null) {
    const [own] = await tx
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, body.whatsappId)));
    if (!own) throw unknownRef('whatsappId');
  }
}

async function setQueues(tx: Tx, companyId: number, userId: number, queueIds: number[]): Promise<void> {
  await tx.delete(userQueues).where(eq(userQueues.userId, userId));
  const unique = [...new Set(queueIds)];
  if (unique.length > 0) await tx.insert(userQueues).values(unique.map((queueId) => ({ userId, queueId, companyId })));
}

/** Locks the company row: two admins demoting or deleting each other cannot both pass the last-admin check. */
async function assertAnotherAdmin(tx: Tx, companyId: number, userId: number): Promise<void> {
  await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
  if ((await countOtherAdmins(tx, companyId, userId)) === 0) throw new AppError('ERR_LAST_ADMIN', 400, 'a company keeps at least one admin');
}

async function reloadAndEmit(ctx: AppContext, companyId: number, id: number, action: 'create' | 'update'): Promise<User> {
  const user = await loadUser(ctx.db, id);
  if (!user) throw notFound();
  await ctx.events.publish({ type: 'company.record', companyId, name: 'user', payload: { action, user } });
  return user;
}

/** Any user of the company may read another (the transfer and selector screens list them); other companies' ids are 404. */
export async function getUser(ctx: AppContext, by: AuthUser, id: number): Promise<User> {
  if (!(await findCompanyUser(ctx.db, by.companyId, id))) throw notFound();
  const user = await loadUser(ctx.db, id);
  if (!user) throw notFound();
  return user;
}

/** Creates a user in the caller's company, within the plan's user limit. */
export async function createUser(ctx: AppContext, by: AuthUser, body: CreateBody): Promise<User> {
  const { password, queueIds, ...fields } = body;
  const passwordHash = await hashChosenPassword(password);
  const companyId = by.companyId;

  const userId = await ctx.db.transaction(async (tx) => {
    await assertPlanLimit(tx, companyId, 'users', () => countCompanyUsers(tx, companyId));
    if (await emailExists(tx, body.email)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS', 409);
    await assertOwnRefs(tx, companyId, body);
    const [row] = await tx
      .insert(users)
      .values({ ...fields, companyId, passwordHash, super: false })
      .returning({ id: users.id });
    if (!row) throw new AppError('ERR_INTERNAL', 500);
    await setQueues(tx, companyId, row.id, queueIds);
    return row.id;
  });
  return reloadAndEmit(ctx, companyId, userId, 'create');
}

/** Did the body change an admin-only field? Equal values pass: the dialog sends the whole form. */
function changesAdminFields(current: typeof users.$inferSelect, currentQueues: number[], body: UpdateBody): boolean {
  return ADMIN_ONLY_USER_FIELDS.some((field) => {
    if (field === 'queueIds') {
      const wanted = body.queueIds && [...new Set(body.queueIds)].sort();
      return wanted !== undefined && wanted.join() !== [...currentQueues].sort().join();
    }
    return body[field] !== undefined && body[field] !== current[field];
  });
}

/**
 * Admins edit any user of their company; a plain user edits only their own profile fields
 * (never profile, permissions, queues, connection or work hours). Only the super user edits
 * the super user. The last admin of a company cannot be demoted.
 */
export async function updateUser(ctx: AppContext, by: AuthUser, id: number, body: UpdateBody): Promise<User> {
  const { password, queueIds, ...fields } = body;
  const passwordHash = password ? await hashChosenPassword(password) : undefined;
  const companyId = by.companyId;

  await ctx.db.transaction(async (tx) => {
    const current = await findCompanyUser(tx, companyId, id);
    if (!current) throw notFound();
    if (!isAdmin(by) && current.id !== by.id) throw noPermission();
    if (current.super && !by.super) throw noPermission();
    if (!isAdmin(by) && changesAdminFields(current, await userQueueIds(tx, id), body)) throw noPermission();
    if (current.profile === 'admin' && fields.profile === 'user') await assertAnotherAdmin(tx, companyId, id);
    if (fields.email !== undefined && fields.email !== current.email) {
      const owner = await findUserByEmail(tx, fields.email);
      if (owner && owner.id !== id) throw new AppError('ERR_EMAIL_ALREADY_EXISTS', 409);
    }
    await assertOwnRefs(tx, companyId, body);

    const changes = { ...fields, ...(passwordHash ? { passwordHash } : {}) };
    if (Object.keys(changes).length > 0) await tx.update(users).set(changes).where(eq(users.id, id));
    if (queueIds) await setQueues(tx, companyId, id, queueIds);
  });
  await ctx.events.publish({ type: 'user.rightsChanged', companyId, userId: id });
  return reloadAndEmit(ctx, companyId, id, 'update');
}

/** Admins only (route guard). Never the super user, never the company's last admin. */
export async function deleteUser(ctx: AppContext, by: AuthUser, id: number): Promise<{ profileImage: string | null }> {
  const companyId = by.companyId;
  const removed = await ctx.db.transaction(async (tx) => {
    const current = await findCompanyUser(tx, companyId, id);
    if (!current) throw notFound();
    if (current.super) throw noPermission();
    if (current.profile === 'admin') await assertAnotherAdmin(tx, companyId, id);
    await tx.delete(users).where(and(eq(users.companyId, companyId), eq(users.id, id)));
    return { profileImage: current.profileImage };
  });
  await ctx.events.publish(
    { type: 'user.signedOut', companyId, userId: id },
    { type: 'company.record', companyId, name: 'user', payload: { action: 'delete', userId: id } },
  );
  return removed;
}

/** `PUT /users/toggleChangeWidht/{userId}`: the user themself, or an admin of the company. */
export async function setTicketsManagerWidth(ctx: AppContext, by: AuthUser, id: number, width: number): Promise<User> {
  const current = await findCompanyUser(ctx.db, by.companyId, id);
  if (!current) throw notFound();
  if (current.id !== by.id && (!isAdmin(by) || (current.super && !by.super))) throw noPermission();
  await ctx.db.update(users).set({ defaultTicketsManagerWidth: width }).where(eq(users.id, id));
  return reloadAndEmit(ctx, by.companyId, id, 'update');
}

/** Stores a new avatar file name and answers the user; the previous file name is returned for removal. */
export async function setProfileImage(ctx: AppContext, by: AuthUser, fileName: string): Promise<{ user: User; previous: string | null }> {
  const previous = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select({ profileImage: users.profileImage }).from(users).where(eq(users.id, by.id)).for('update');
    await tx.update(users).set({ profileImage: fileName }).where(eq(users.id, by.id));
    return row?.profileImage ?? null;
  });
  return { user: await reloadAndEmit(ctx, by.companyId, by.id, 'update'), previous };
}

/** `GET /users/list?companyId=`: another company's users for the super user only. */
export function listCompanyFor(by: AuthUser, companyId: number | undefined): number {
  if (companyId === undefined || companyId === by.companyId) return by.companyId;
  if (!by.super) throw noPermission();
  return companyId;
}
