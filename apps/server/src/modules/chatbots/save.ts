import { CHATBOT_MAX_DEPTH, CHATBOT_MAX_OPTIONS, type ChatbotOptionBody } from '@balcao/contracts';
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { chatbots, fileLists, queueIntegrations, queues, users } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { assertPlanFlag } from '../../http/plan.js';

/** The fields an option stores (without its place in the tree). */
export type OptionFields = Omit<ChatbotOptionBody, 'id' | 'options'>;

const invalidTarget = (detail: string) => new AppError('ERR_CHATBOT_INVALID_TARGET', 400, detail);
const cycle = (detail: string) => new AppError('ERR_CHATBOT_CYCLE', 400, detail);

/** Only the target its type uses is kept, so a changed type leaves no stale link behind. */
export function optionValues(o: OptionFields) {
  return {
    name: o.name,
    greetingMessage: o.greetingMessage ?? '',
    queueType: o.queueType,
    closeTicket: o.closeTicket,
    optQueueId: o.queueType === 'queue' ? (o.optQueueId ?? null) : null,
    optUserId: o.queueType === 'attendent' ? (o.optUserId ?? null) : null,
    optIntegrationId: o.queueType === 'integration' ? (o.optIntegrationId ?? null) : null,
    optFileId: o.queueType === 'file' ? (o.optFileId ?? null) : null,
  };
}

async function idsOf(tx: Tx, table: typeof users | typeof queues | typeof queueIntegrations | typeof fileLists, companyId: number, ids: Set<number>): Promise<Set<number>> {
  if (ids.size === 0) return new Set();
  const rows = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.companyId, companyId), inArray(table.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/**
 * Every option's target exists in the company (one query per kind), `integration` needs the
 * plan's useIntegrations, and no `queue` option sends the customer back into its own queue's menu.
 */
export async function assertTargets(tx: Tx, companyId: number, queueId: number, options: OptionFields[]): Promise<void> {
  const wanted = { queue: new Set<number>(), attendent: new Set<number>(), integration: new Set<number>(), file: new Set<number>() };
  for (const o of options) {
    const v = optionValues(o);
    const target = { text: 0, queue: v.optQueueId, attendent: v.optUserId, integration: v.optIntegrationId, file: v.optFileId }[o.queueType];
    if (o.queueType === 'text') continue;
    if (!target) throw invalidTarget(`option '${o.name}' of type ${o.queueType} has no target`);
    if (o.queueType === 'queue' && target === queueId) throw cycle(`option '${o.name}' leads back to its own queue`);
    wanted[o.queueType].add(target);
  }
  if (wanted.integration.size > 0) await assertPlanFlag(tx, companyId, 'useIntegrations');
  const checks = [
    [wanted.queue, queues],
    [wanted.attendent, users],
    [wanted.integration, queueIntegrations],
    [wanted.file, fileLists],
  ] as const;
  for (const [ids, table] of checks) {
    const found = await idsOf(tx, table, companyId, ids);
    const missing = [...ids].filter((id) => !found.has(id));
    if (missing.length > 0) throw invalidTarget(`no such target: ${missing.join(', ')}`);
  }
}

interface Flat {
  body: ChatbotOptionBody;
  /** Index of the parent in the flat list; -1 for the level being replaced. */
  parent: number;
  position: number;
}

function flatten(options: ChatbotOptionBody[]): Flat[] {
  const flat: Flat[] = [];
  const walk = (level: ChatbotOptionBody[], parent: number, depth: number) => {
    if (depth > CHATBOT_MAX_DEPTH) throw new AppError('ERR_VALIDATION', 400, `options nest deeper than ${CHATBOT_MAX_DEPTH} levels`);
    level.forEach((body, position) => {
      flat.push({ body, parent, position });
      walk(body.options ?? [], flat.length - 1, depth + 1);
    });
  };
  walk(options, -1, 1);
  if (flat.length > CHATBOT_MAX_OPTIONS) throw new AppError('ERR_VALIDATION', 400, `more than ${CHATBOT_MAX_OPTIONS} options`);
  return flat;
}

export interface ReplaceLevel {
  companyId: number;
  queueId: number;
  /** The option whose nested options are replaced; null: the queue's whole tree. */
  parentId: number | null;
  options: ChatbotOptionBody[];
  /** Options that may not appear inside (the parent and its ancestors): a cycle. */
  forbidden?: number[];
}

/**
 * Replaces everything under `parentId` with the sent options, in the caller's transaction:
 * options sent with an id are updated and moved in place (they must be the queue's), the
 * others created, and the ones no longer sent deleted (with whatever hangs under them).
 */
export async function replaceLevel(tx: Tx, r: ReplaceLevel): Promise<void> {
  const flat = flatten(r.options);
  const given = flat.flatMap((f) => (f.body.id ? [f.body.id] : []));
  if (new Set(given).size !== given.length) throw cycle('an option appears twice in the tree');
  if (given.some((id) => r.forbidden?.includes(id))) throw cycle('an option is nested inside itself');
  if (given.length > 0) {
    const own = await tx
      .select({ id: chatbots.id })
      .from(chatbots)
      .where(and(eq(chatbots.companyId, r.companyId), eq(chatbots.queueId, r.queueId), inArray(chatbots.id, given)));
    if (own.length !== given.length) throw new AppError('ERR_NO_CHATBOT_FOUND', 404);
  }
  await assertTargets(tx, r.companyId, r.queueId, flat.map((f) => f.body));

  const before = await subtreeIds(tx, r);
  const ids: number[] = [];
  for (const f of flat) {
    const values = { ...optionValues(f.body), parentId: f.parent < 0 ? r.parentId : ids[f.parent]!, position: f.position };
    if (f.body.id) {
      await tx.update(chatbots).set(values).where(eq(chatbots.id, f.body.id));
      ids.push(f.body.id);
    } else {
      const [row] = await tx
        .insert(chatbots)
        .values({ ...values, companyId: r.companyId, queueId: r.queueId })
        .returning({ id: chatbots.id });
      ids.push(row!.id);
    }
  }
  const gone = before.filter((id) => !ids.includes(id));
  if (gone.length > 0) await tx.delete(chatbots).where(inArray(chatbots.id, gone));
}

/** The ids under `parentId` (all of the queue's for null), kept ones included. */
async function subtreeIds(tx: Tx, r: ReplaceLevel): Promise<number[]> {
  if (r.parentId === null) {
    const rows = await tx.select({ id: chatbots.id }).from(chatbots).where(and(eq(chatbots.companyId, r.companyId), eq(chatbots.queueId, r.queueId)));
    return rows.map((row) => row.id);
  }
  const { rows } = await tx.execute<{ id: number }>(sql`
    WITH RECURSIVE sub AS (
      SELECT id FROM chatbots WHERE parent_id = ${r.parentId}
      UNION ALL SELECT c.id FROM chatbots c JOIN sub ON c.parent_id = sub.id
    ) SELECT id FROM sub`);
  return rows.map((row) => Number(row.id));
}

/** The next free position among the siblings under `parentId`. */
export async function nextPosition(tx: Tx, queueId: number, parentId: number | null): Promise<number> {
  const where: SQL | undefined = and(eq(chatbots.queueId, queueId), parentId === null ? isNull(chatbots.parentId) : eq(chatbots.parentId, parentId));
  const [row] = await tx.select({ n: sql<number>`coalesce(max(${chatbots.position}) + 1, 0)::int` }).from(chatbots).where(where);
  return row?.n ?? 0;
}

/** Closes the gap a deleted option leaves: the answer numbers stay 1…n. */
export async function renumber(tx: Tx, queueId: number, parentId: number | null): Promise<void> {
  const level = parentId === null ? sql`parent_id IS NULL` : sql`parent_id = ${parentId}`;
  await tx.execute(sql`
    UPDATE chatbots c SET position = o.n - 1
    FROM (SELECT id, row_number() OVER (ORDER BY position, id) AS n FROM chatbots WHERE queue_id = ${queueId} AND ${level}) o
    WHERE c.id = o.id AND c.position <> o.n - 1`);
}

