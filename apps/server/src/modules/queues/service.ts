import { DEFAULT_WEEK_SCHEDULE, type ChatbotOption, type Queue, type createQueueBody, type updateQueueBody } from '@balcao/contracts';
import { and, asc, count, eq, max, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { queues, userQueues } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { assertPlanLimit } from '../../http/plan.js';
import { replaceLevel } from '../chatbots/save.js';
import { loadQueueTrees } from '../chatbots/tree.js';
import { assertOwnFileList } from '../files/queries.js';
import { assertOwnIntegration } from '../queue-integrations/queries.js';

type QueueRow = typeof queues.$inferSelect;

/** The one place that shapes a queue for the API; with its option tree when given. */
function presentQueue(row: QueueRow, chatbots?: ChatbotOption[]): Queue {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    color: row.color,
    orderQueue: row.orderQueue,
    greetingMessage: row.greetingMessage,
    outOfHoursMessage: row.outOfHoursMessage,
    closeTicket: row.closeTicket,
    schedules: row.schedules,
    ativarRoteador: row.ativarRoteador,
    tempoRoteador: row.tempoRoteador,
    ...(chatbots ? { chatbots } : {}),
    integrationId: row.integrationId,
    fileListId: row.fileListId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const queueOrder = [sql`${queues.orderQueue} ASC NULLS LAST`, asc(queues.name), asc(queues.id)];
const notFound = () => new AppError('ERR_NO_QUEUE_FOUND', 404);

/** The integration and file list a queue names must be the company's. */
async function assertOwnLinks(db: DbOrTx, companyId: number, body: { integrationId?: number | null; fileListId?: number | null }): Promise<void> {
  await assertOwnIntegration(db, companyId, body.integrationId);
  await assertOwnFileList(db, companyId, body.fileListId);
}

/** Name and colour are unique per company (colour whatever its case); checked first for a clear code, the unique keys back it up. */
async function assertUnique(db: DbOrTx, companyId: number, fields: { name?: string; color?: string }, exceptId?: number): Promise<void> {
  const others = exceptId === undefined ? eq(queues.companyId, companyId) : and(eq(queues.companyId, companyId), ne(queues.id, exceptId));
  if (fields.color !== undefined) {
    const [clash] = await db.select({ id: queues.id }).from(queues).where(and(others, sql`upper(${queues.color}) = upper(${fields.color})`));
    if (clash) throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS', 409);
  }
  if (fields.name !== undefined) {
    const [clash] = await db.select({ id: queues.id }).from(queues).where(and(others, sql`lower(${queues.name}) = lower(${fields.name})`));
    if (clash) throw new AppError('ERR_QUEUE_NAME_ALREADY_EXISTS', 409);
  }
}

export async function listQueues(ctx: AppContext, by: AuthUser): Promise<Queue[]> {
  const rows = await ctx.db.select().from(queues).where(eq(queues.companyId, by.companyId)).orderBy(...queueOrder);
  return rows.map((row) => presentQueue(row));
}

/** `GET /queue/user`: the queues the caller is linked to. */
export async function listOwnQueues(ctx: AppContext, by: AuthUser): Promise<Queue[]> {
  const rows = await ctx.db
    .select({ queue: queues })
    .from(userQueues)
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(and(eq(userQueues.companyId, by.companyId), eq(userQueues.userId, by.id)))
    .orderBy(...queueOrder);
  return rows.map((r) => presentQueue(r.queue));
}

export async function getQueue(ctx: AppContext, by: AuthUser, id: number): Promise<Queue> {
  const [row] = await ctx.db.select().from(queues).where(and(eq(queues.companyId, by.companyId), eq(queues.id, id)));
  if (!row) throw notFound();
  return withTree(ctx, row);
}

async function withTree(ctx: AppContext, row: QueueRow): Promise<Queue> {
  const trees = await loadQueueTrees(ctx.db, row.companyId, [row.id]);
  return presentQueue(row, trees.get(row.id) ?? []);
}

/** The queue with its tree to the company's listeners (after its options changed through `/chatbot`). */
export async function publishQueueUpdate(ctx: AppContext, companyId: number, id: number): Promise<void> {
  const [row] = await ctx.db.select().from(queues).where(and(eq(queues.companyId, companyId), eq(queues.id, id)));
  if (row) await ctx.events.publish({ type: 'company.record', companyId, name: 'queue', payload: { action: 'update', record: await withTree(ctx, row) } });
}

/** A queue created without an order goes last: the list's Ordem column never shows a blank. */
async function nextOrder(db: DbOrTx, companyId: number): Promise<number> {
  const [row] = await db.select({ max: max(queues.orderQueue) }).from(queues).where(eq(queues.companyId, companyId));
  return (row?.max ?? 0) + 1;
}

/** Within the plan's queue limit (403 ERR_QUEUE_LIMIT_REACHED); default hours and the next order when none are sent. */
export async function createQueue(ctx: AppContext, by: AuthUser, body: z.output<typeof createQueueBody>): Promise<Queue> {
  const companyId = by.companyId;
  const row = await ctx.db.transaction(async (tx) => {
    await assertPlanLimit(tx, companyId, 'queues', async () => {
      const [row] = await tx.select({ n: count() }).from(queues).where(eq(queues.companyId, companyId));
      return row?.n ?? 0;
    });
    await assertUnique(tx, companyId, body);
    await assertOwnLinks(tx, companyId, body);
    const { chatbots, ...fields } = body;
    const orderQueue = fields.orderQueue ?? (await nextOrder(tx, companyId));
    const [inserted] = await tx
      .insert(queues)
      .values({ ...fields, orderQueue, companyId, schedules: fields.schedules ?? DEFAULT_WEEK_SCHEDULE })
      .returning();
    if (inserted && chatbots) await replaceLevel(tx, { companyId, queueId: inserted.id, parentId: null, options: chatbots });
    return inserted;
  });
  if (!row) throw new AppError('ERR_INTERNAL', 500);
  const queue = await withTree(ctx, row);
  await ctx.events.publish({ type: 'company.record', companyId, name: 'queue', payload: { action: 'create', record: queue } });
  return queue;
}

export async function updateQueue(ctx: AppContext, by: AuthUser, id: number, body: z.output<typeof updateQueueBody>): Promise<Queue> {
  const companyId = by.companyId;
  const row = await ctx.db.transaction(async (tx) => {
    const scope = and(eq(queues.companyId, companyId), eq(queues.id, id));
    const [current] = await tx.select().from(queues).where(scope).for('update');
    if (!current) throw notFound();
    await assertUnique(tx, companyId, body, id);
    await assertOwnLinks(tx, companyId, body);
    const { chatbots, ...fields } = body;
    if (chatbots) await replaceLevel(tx, { companyId, queueId: id, parentId: null, options: chatbots });
    if (Object.keys(fields).length === 0) return current;
    const [updated] = await tx.update(queues).set(fields).where(scope).returning();
    return updated;
  });
  if (!row) throw notFound();
  const queue = await withTree(ctx, row);
  await ctx.events.publish({ type: 'company.record', companyId, name: 'queue', payload: { action: 'update', record: queue } });
  return queue;
}

/** The queue's user links go with it (cascade). */
export async function deleteQueue(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  const deleted = await ctx.db
    .delete(queues)
    .where(and(eq(queues.companyId, by.companyId), eq(queues.id, id)))
    .returning({ id: queues.id });
  if (deleted.length === 0) throw notFound();
  await ctx.events.publish({ type: 'company.record', companyId: by.companyId, name: 'queue', payload: { action: 'delete', id } });
}
