import type { ChatbotOption, createChatbotBody, updateChatbotBody } from '@balcao/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import { chatbots, queues } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { publishQueueUpdate } from '../queues/service.js';
import { assertTargets, nextPosition, optionValues, renumber, replaceLevel } from './save.js';
import { loadOption, type ChatbotRow } from './tree.js';

const notFound = () => new AppError('ERR_NO_CHATBOT_FOUND', 404);

export async function getChatbot(ctx: AppContext, by: AuthUser, id: number): Promise<ChatbotOption> {
  const option = await loadOption(ctx.db, by.companyId, id);
  if (!option) throw notFound();
  return option;
}

async function lockOption(tx: Tx, companyId: number, id: number): Promise<ChatbotRow> {
  const [row] = await tx.select().from(chatbots).where(and(eq(chatbots.companyId, companyId), eq(chatbots.id, id))).for('update');
  if (!row) throw notFound();
  return row;
}

/** The option and its ancestors: none of them may be sent among its nested options. */
async function selfAndAncestors(tx: Tx, id: number): Promise<number[]> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    WITH RECURSIVE up AS (
      SELECT id, parent_id FROM chatbots WHERE id = ${id}
      UNION ALL SELECT c.id, c.parent_id FROM chatbots c JOIN up ON c.id = up.parent_id
    ) SELECT id FROM up`);
  return rows.map((r) => Number(r.id));
}

/** After a change through `/chatbot`: the queue's listeners get the queue with its new tree. */
async function finish(ctx: AppContext, by: AuthUser, queueId: number, id: number): Promise<ChatbotOption> {
  await publishQueueUpdate(ctx, by.companyId, queueId);
  return getChatbot(ctx, by, id);
}

export async function createChatbot(ctx: AppContext, by: AuthUser, body: z.output<typeof createChatbotBody>): Promise<ChatbotOption> {
  const companyId = by.companyId;
  const { queueId, parentId, options, ...fields } = body;
  const id = await ctx.db.transaction(async (tx) => {
    const [queue] = await tx.select({ id: queues.id }).from(queues).where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)));
    if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND', 404);
    const parent = parentId ? await lockOption(tx, companyId, parentId) : undefined;
    if (parent && parent.queueId !== queueId) throw notFound();
    await assertTargets(tx, companyId, queueId, [fields]);
    const [row] = await tx
      .insert(chatbots)
      .values({ ...optionValues(fields), companyId, queueId, parentId: parent?.id ?? null, position: await nextPosition(tx, queueId, parent?.id ?? null) })
      .returning({ id: chatbots.id });
    if (options?.length) await replaceLevel(tx, { companyId, queueId, parentId: row!.id, options });
    return row!.id;
  });
  return finish(ctx, by, queueId, id);
}

export async function updateChatbot(ctx: AppContext, by: AuthUser, id: number, body: z.output<typeof updateChatbotBody>): Promise<ChatbotOption> {
  const companyId = by.companyId;
  const { options, ...patch } = body;
  const queueId = await ctx.db.transaction(async (tx) => {
    const current = await lockOption(tx, companyId, id);
    const fields = {
      name: patch.name ?? current.name,
      greetingMessage: patch.greetingMessage === undefined ? current.greetingMessage : patch.greetingMessage,
      queueType: patch.queueType ?? current.queueType,
      closeTicket: patch.closeTicket ?? current.closeTicket,
      optQueueId: patch.optQueueId === undefined ? current.optQueueId : patch.optQueueId,
      optUserId: patch.optUserId === undefined ? current.optUserId : patch.optUserId,
      optIntegrationId: patch.optIntegrationId === undefined ? current.optIntegrationId : patch.optIntegrationId,
      optFileId: patch.optFileId === undefined ? current.optFileId : patch.optFileId,
    };
    await assertTargets(tx, companyId, current.queueId, [fields]);
    if (options?.length && !fields.greetingMessage?.trim()) throw new AppError('ERR_VALIDATION', 400, 'A message is required to add options');
    await tx.update(chatbots).set(optionValues(fields)).where(eq(chatbots.id, id));
    if (options) await replaceLevel(tx, { companyId, queueId: current.queueId, parentId: id, options, forbidden: await selfAndAncestors(tx, id) });
    return current.queueId;
  });
  return finish(ctx, by, queueId, id);
}

/** With everything under it; its siblings close the gap. */
export async function deleteChatbot(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  const row = await ctx.db.transaction(async (tx) => {
    const current = await lockOption(tx, by.companyId, id);
    await tx.delete(chatbots).where(eq(chatbots.id, id));
    await renumber(tx, current.queueId, current.parentId);
    return current;
  });
  await publishQueueUpdate(ctx, by.companyId, row.queueId);
}
