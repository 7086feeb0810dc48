import { CONNECTION_TOKEN_LENGTH, whatsappFormSchema, type Channel, type PlanFlag, type Whatsapp, type WhatsappFormValues } from '@balcao/contracts';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { randomInt } from 'node:crypto';
import type { DbOrTx, Tx } from '../../db/client.js';
import { queues, users, whatsappQueues, whatsapps } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { assertPlanFlag, assertPlanLimit } from '../../http/plan.js';
import { emitWhatsapp } from '../conversations/session-status.js';
import { assertOwnPrompt } from '../prompts/service.js';
import type { WhatsappRow } from './presenter.js';
import { countWhatsapps, findWhatsapp, otherWhatsappIds, presentWhatsapps, queuesOf } from './queries.js';
import { assertOwnIntegration } from '../queue-integrations/queries.js';

const PLAN_FLAG: Record<Channel, PlanFlag> = { whatsapp: 'useWhatsapp', facebook: 'useFacebook', instagram: 'useInstagram' };
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 30 random letters and digits (spec 1 §9), from the CSPRNG. */
export function generateConnectionToken(): string {
  return Array.from({ length: CONNECTION_TOKEN_LENGTH }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
}

/** Admins, super users and users with allowConnections may add, edit, delete and (re)connect connections (spec 1 §6). */
export async function canManageConnections(ctx: AppContext, by: AuthUser): Promise<boolean> {
  if (by.profile === 'admin' || by.super) return true;
  const [row] = await ctx.db.select({ allow: users.allowConnections }).from(users).where(eq(users.id, by.id));
  return row?.allow === 'enabled';
}

export async function assertCanManage(ctx: AppContext, by: AuthUser): Promise<void> {
  if (!(await canManageConnections(ctx, by))) throw new AppError('ERR_NO_PERMISSION', 403);
}

/** A connection the caller may reach: its own company's, or any for the super user. Else 404 (never 403: ids do not leak). */
export async function connectionFor(ctx: AppContext, by: AuthUser, id: number): Promise<WhatsappRow> {
  const row = await findWhatsapp(ctx.db, id);
  if (!row || (row.companyId !== by.companyId && !by.super)) throw new AppError('ERR_NO_WAPP_FOUND', 404);
  return row;
}

export async function presentOne(ctx: AppContext, by: AuthUser, row: WhatsappRow): Promise<Whatsapp> {
  const [w] = await presentWhatsapps(ctx.db, [row], await canManageConnections(ctx, by));
  if (!w) throw new AppError('ERR_INTERNAL', 500);
  return w;
}

/** Form values of a stored connection: PUT merges the request over them, then validates the whole. */
function formOf(row: WhatsappRow, queueIds: number[]): Record<string, unknown> {
  const { id: _id, companyId: _c, status: _s, qrcode: _q, retries: _r, number: _n, facebookPageToken: _t, createdAt: _ca, updatedAt: _ua, ...form } = row;
  return { ...form, queueIds };
}

/** Queue ids the form refers to must be the company's. */
async function assertOwnQueues(db: DbOrTx, companyId: number, v: WhatsappFormValues): Promise<void> {
  await assertOwnQueueIds(db, companyId, [...v.queueIds, v.sendIdQueue, v.queueIdImportMessages].filter((x): x is number => typeof x === 'number'));
  await assertOwnIntegration(db, companyId, v.integrationId);
}

export async function assertOwnQueueIds(db: DbOrTx, companyId: number, queueIds: number[]): Promise<void> {
  const ids = [...new Set(queueIds)];
  if (ids.length === 0) return;
  const own = await db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), inArray(queues.id, ids)));
  if (own.length !== ids.length) throw new AppError('ERR_VALIDATION', 400, 'unknown queue', [{ path: 'queueIds', message: 'unknown queue' }]);
}

/** Spec 1 §5: a connection with more than one queue needs a greeting (the queue menu is sent with it). */
function assertGreeting(v: WhatsappFormValues): void {
  if (v.queueIds.length > 1 && !v.greetingMessage.trim()) throw new AppError('ERR_WAPP_GREETING_REQUIRED', 400);
}

/** The plan must include the channel and leave room for `adding` more connections (the company row is locked meanwhile). */
export async function assertPlanAllows(tx: Tx, companyId: number, channel: Channel, adding: number): Promise<void> {
  await assertPlanFlag(tx, companyId, PLAN_FLAG[channel]);
  if (adding > 0) await assertPlanLimit(tx, companyId, 'connections', async () => (await countWhatsapps(tx, companyId)) + adding - 1);
}

export async function replaceQueues(tx: Tx, companyId: number, whatsappId: number, queueIds: number[]): Promise<void> {
  await tx.delete(whatsappQueues).where(eq(whatsappQueues.whatsappId, whatsappId));
  if (queueIds.length) await tx.insert(whatsappQueues).values([...new Set(queueIds)].map((queueId) => ({ whatsappId, queueId, companyId })));
}

/**
 * The one default per company: setting one unsets the others (a partial unique index backs this).
 * Answers the connections that lost the mark, so open screens hear about them too.
 */
async function takeDefault(tx: Tx, companyId: number, whatsappId?: number): Promise<WhatsappRow[]> {
  const others = whatsappId === undefined ? undefined : ne(whatsapps.id, whatsappId);
  return tx
    .update(whatsapps)
    .set({ isDefault: false })
    .where(and(eq(whatsapps.companyId, companyId), others, eq(whatsapps.isDefault, true)))
    .returning();
}

function columnsOf(v: WhatsappFormValues) {
  const { queueIds: _q, token: _t, channel: _c, ...columns } = v;
  return columns;
}

/** `POST /whatsapp`: validates, checks plan and permissions, stores, then opens the session. */
export async function createWhatsapp(ctx: AppContext, by: AuthUser, v: WhatsappFormValues): Promise<Whatsapp> {
  await assertCanManage(ctx, by);
  assertGreeting(v);
  const companyId = by.companyId;
  await assertOwnQueues(ctx.db, companyId, v);
  await assertOwnPrompt(ctx.db, companyId, v.promptId);

  const { row, undefaulted } = await ctx.db.transaction(async (tx) => {
    await assertPlanAllows(tx, companyId, v.channel, 1);
    const first = (await countWhatsapps(tx, companyId)) === 0;
    const isDefault = first || v.isDefault;
    const undefaulted = isDefault ? await takeDefault(tx, companyId) : [];
    const [created] = await tx
      .insert(whatsapps)
      .values({
        ...columnsOf(v),
        companyId,
        channel: v.channel,
        isDefault,
        token: v.token ?? generateConnectionToken(),
        status: v.channel === 'whatsapp' ? 'OPENING' : 'DISCONNECTED',
      })
      .returning();
    if (!created) throw new AppError('ERR_INTERNAL', 500);
    await replaceQueues(tx, companyId, created.id, v.queueIds);
    return { row: created, undefaulted };
  });

  for (const other of undefaulted) await emitWhatsapp(ctx, other);
  await emitWhatsapp(ctx, row);
  if (row.channel === 'whatsapp') startSession(ctx, row);
  return presentOne(ctx, by, row);
}

/** `PUT /whatsapp/{id}`: the request is merged over the stored values and the whole form is validated again. */
export async function updateWhatsapp(ctx: AppContext, by: AuthUser, id: number, body: Record<string, unknown>): Promise<Whatsapp> {
  await assertCanManage(ctx, by);
  const current = await connectionFor(ctx, by, id);
  const currentQueues = (await queuesOf(ctx.db, [id])).get(id)?.map((q) => q.id) ?? [];
  const v = whatsappFormSchema.parse({ ...formOf(current, currentQueues), ...body, channel: current.channel });
  assertGreeting(v);
  await assertOwnQueues(ctx.db, current.companyId, v);
  await assertOwnPrompt(ctx.db, current.companyId, v.promptId);
  if (current.isDefault && !v.isDefault) throw new AppError('ERR_NO_OTHER_WHATSAPP', 400);

  const { row, undefaulted } = await ctx.db.transaction(async (tx) => {
    const undefaulted = v.isDefault ? await takeDefault(tx, current.companyId, id) : [];
    const [updated] = await tx
      .update(whatsapps)
      .set({ ...columnsOf(v), token: v.token ?? current.token })
      .where(eq(whatsapps.id, id))
      .returning();
    if (!updated) throw new AppError('ERR_NO_WAPP_FOUND', 404);
    await replaceQueues(tx, current.companyId, id, v.queueIds);
    return { row: updated, undefaulted };
  });
  for (const other of undefaulted) await emitWhatsapp(ctx, other);
  await emitWhatsapp(ctx, row);
  return presentOne(ctx, by, row);
}

/**
 * `DELETE /whatsapp/{id}`. The default connection goes only when it is the last one:
 * otherwise another must be made default first (ERR_NO_OTHER_WHATSAPP).
 */
export async function deleteWhatsapp(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  await assertCanManage(ctx, by);
  const row = await connectionFor(ctx, by, id);
  if (row.isDefault && (await otherWhatsappIds(ctx.db, row.companyId, id)).length > 0) throw new AppError('ERR_NO_OTHER_WHATSAPP', 400);
  await ctx.channels
    .adapterFor(row.channel)
    .stop(row, { logout: true })
    .catch((err: unknown) => ctx.log.warn({ err, whatsappId: id }, 'closing the session of a deleted connection failed'));
  await ctx.db.delete(whatsapps).where(eq(whatsapps.id, id));
  if (row.greetingMediaAttachment) await ctx.storage.remove(row.companyId, row.greetingMediaAttachment);
  await ctx.events.publish({ type: 'company.record', companyId: row.companyId, name: 'whatsapp', payload: { action: 'delete', whatsappId: id } });
}

/** The company's default connection (ERR_NO_DEF_WAPP_FOUND when it has none), for sends that name no connection. */
export async function defaultWhatsapp(ctx: AppContext, companyId: number): Promise<WhatsappRow> {
  const [row] = await ctx.db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)));
  if (!row) throw new AppError('ERR_NO_DEF_WAPP_FOUND', 404);
  return row;
}

/** Opens a session in the background: the HTTP answer does not wait for WhatsApp. */
export function startSession(ctx: AppContext, row: WhatsappRow): void {
  ctx.channels
    .adapterFor(row.channel)
    .start(row)
    .catch((err: unknown) => ctx.log.error({ err, whatsappId: row.id }, 'starting the session failed'));
}
