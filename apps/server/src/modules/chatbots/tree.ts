import type { ChatbotOption } from '@balcao/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { chatbots } from '../../db/schema/index.js';

export type ChatbotRow = typeof chatbots.$inferSelect;

const present = (row: ChatbotRow): ChatbotOption => ({
  id: row.id,
  queueId: row.queueId,
  parentId: row.parentId,
  name: row.name,
  greetingMessage: row.greetingMessage,
  queueType: row.queueType,
  closeTicket: row.closeTicket,
  optQueueId: row.optQueueId,
  optUserId: row.optUserId,
  optIntegrationId: row.optIntegrationId,
  optFileId: row.optFileId,
  position: row.position,
  options: [],
});

/** Nests rows (already in position order) under their parents; answers the roots. */
export function buildTrees(rows: ChatbotRow[]): ChatbotOption[] {
  const byId = new Map(rows.map((r) => [r.id, present(r)]));
  const roots: ChatbotOption[] = [];
  for (const option of byId.values()) {
    const parent = option.parentId === null ? undefined : byId.get(option.parentId);
    if (parent) parent.options.push(option);
    else roots.push(option);
  }
  return roots;
}

/** The option trees of some queues, one query: queue id → its top-level options. */
export async function loadQueueTrees(db: DbOrTx, companyId: number, queueIds: number[]): Promise<Map<number, ChatbotOption[]>> {
  const trees = new Map<number, ChatbotOption[]>(queueIds.map((id) => [id, []]));
  if (queueIds.length === 0) return trees;
  const rows = await db
    .select()
    .from(chatbots)
    .where(and(eq(chatbots.companyId, companyId), inArray(chatbots.queueId, queueIds)))
    .orderBy(asc(chatbots.position), asc(chatbots.id));
  for (const root of buildTrees(rows)) trees.get(root.queueId)?.push(root);
  return trees;
}

/** One option with everything under it (undefined when it is not the company's). */
export async function loadOption(db: DbOrTx, companyId: number, id: number): Promise<ChatbotOption | undefined> {
  const [row] = await db.select({ queueId: chatbots.queueId }).from(chatbots).where(and(eq(chatbots.companyId, companyId), eq(chatbots.id, id)));
  if (!row) return undefined;
  const rows = await db
    .select()
    .from(chatbots)
    .where(and(eq(chatbots.companyId, companyId), eq(chatbots.queueId, row.queueId)))
    .orderBy(asc(chatbots.position), asc(chatbots.id));
  const find = (options: ChatbotOption[]): ChatbotOption | undefined => {
    for (const o of options) {
      const hit = o.id === id ? o : find(o.options);
      if (hit) return hit;
    }
    return undefined;
  };
  // Rows under a parent that is not in the list would become roots: find() still reaches them.
  return find(buildTrees(rows));
}
