import {
  QUEUE_INTEGRATIONS_PAGE_SIZE,
  SECRET_MASK,
  type ListEventPayload,
  type QueueIntegration,
  type QueueIntegrationType,
  type createQueueIntegrationBody,
  type pageQueueIntegrationsQuery,
  type testQueueIntegrationBody,
  type updateQueueIntegrationBody,
} from '@balcao/contracts';
import { and, asc, count, eq, ilike } from 'drizzle-orm';
import type { z } from 'zod';
import { queueIntegrations } from '../../db/schema/index.js';
import { containsPattern } from '../../db/search.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { openSecret, sealSecret } from '../../secrets.js';
import { conflictAs } from '../contacts/unique.js';
import { DialogflowError, detectIntent, newSessionId } from './dialogflow.js';
import { findQueueIntegration, presentQueueIntegration, type QueueIntegrationRow } from './queries.js';

const notFound = () => new AppError('ERR_NO_INTEGRATION_FOUND', 404);
const NAME_KEY = 'queue_integrations_company_id_name_key';

async function emit(ctx: AppContext, companyId: number, payload: ListEventPayload<QueueIntegration>): Promise<void> {
  await ctx.events.publish({ type: 'company.record', companyId, name: 'queueIntegration', payload });
}

/** `GET /queueIntegration/`: 20 per page by name. */
export async function pageQueueIntegrations(ctx: AppContext, by: AuthUser, q: z.output<typeof pageQueueIntegrationsQuery>) {
  const term = containsPattern(q.searchParam);
  const where = and(eq(queueIntegrations.companyId, by.companyId), term ? ilike(queueIntegrations.name, term) : undefined);
  const [total] = await ctx.db.select({ n: count() }).from(queueIntegrations).where(where);
  const rows = await ctx.db
    .select()
    .from(queueIntegrations)
    .where(where)
    .orderBy(asc(queueIntegrations.name), asc(queueIntegrations.id))
    .limit(QUEUE_INTEGRATIONS_PAGE_SIZE)
    .offset((q.pageNumber - 1) * QUEUE_INTEGRATIONS_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { queueIntegrations: rows.map(presentQueueIntegration), count: n, hasMore: q.pageNumber * QUEUE_INTEGRATIONS_PAGE_SIZE < n };
}

export async function getQueueIntegration(ctx: AppContext, by: AuthUser, id: number): Promise<QueueIntegration> {
  const row = await findQueueIntegration(ctx.db, by.companyId, id);
  if (!row) throw notFound();
  return presentQueueIntegration(row);
}

type Body = z.output<typeof updateQueueIntegrationBody>;

/**
 * The columns a body writes. The key is sealed; the mask (what GET answers) or no key keeps the
 * stored one, '' or null clears it. n8n, webhook and typebot carry projectName = name (spec 3 §5).
 */
function columnsOf(ctx: AppContext, body: Body, type: QueueIntegrationType, name: string) {
  const { jsonContent, ...rest } = body;
  const cols: Partial<typeof queueIntegrations.$inferInsert> = { ...rest };
  if (jsonContent !== undefined && jsonContent !== SECRET_MASK) cols.jsonContent = jsonContent ? sealSecret(ctx.secrets, jsonContent) : null;
  if (type !== 'dialogflow') cols.projectName = name;
  return cols;
}

export async function createQueueIntegration(ctx: AppContext, by: AuthUser, body: z.output<typeof createQueueIntegrationBody>): Promise<QueueIntegration> {
  const [row] = await conflictAs(NAME_KEY, 'ERR_INTEGRATION_NAME_ALREADY_EXISTS', () =>
    ctx.db
      .insert(queueIntegrations)
      .values({ ...columnsOf(ctx, body, body.type, body.name), type: body.type, name: body.name, companyId: by.companyId })
      .returning(),
  );
  if (!row) throw new AppError('ERR_INTERNAL', 500);
  const record = presentQueueIntegration(row);
  await emit(ctx, by.companyId, { action: 'create', record });
  return record;
}

export async function updateQueueIntegration(ctx: AppContext, by: AuthUser, id: number, body: Body): Promise<QueueIntegration> {
  const row = await conflictAs(NAME_KEY, 'ERR_INTEGRATION_NAME_ALREADY_EXISTS', () =>
    ctx.db.transaction(async (tx) => {
      const scope = and(eq(queueIntegrations.companyId, by.companyId), eq(queueIntegrations.id, id));
      const [current] = await tx.select().from(queueIntegrations).where(scope).for('update');
      if (!current) throw notFound();
      const [updated] = await tx
        .update(queueIntegrations)
        .set({ ...columnsOf(ctx, body, body.type ?? current.type, body.name ?? current.name), updatedAt: new Date() })
        .where(scope)
        .returning();
      return updated;
    }),
  );
  if (!row) throw notFound();
  const record = presentQueueIntegration(row);
  await emit(ctx, by.companyId, { action: 'update', record });
  return record;
}

/** Queues, connections, tickets and bot options that used it let go of it (ON DELETE SET NULL). */
export async function deleteQueueIntegration(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  const deleted = await ctx.db
    .delete(queueIntegrations)
    .where(and(eq(queueIntegrations.companyId, by.companyId), eq(queueIntegrations.id, id)))
    .returning({ id: queueIntegrations.id });
  if (deleted.length === 0) throw notFound();
  await emit(ctx, by.companyId, { action: 'delete', id });
}

/** The stored service-account key of an integration ('' when none). */
export function storedKeyOf(ctx: AppContext, row: QueueIntegrationRow): string {
  return row.jsonContent ? openSecret(ctx.secrets, row.jsonContent) : '';
}

/**
 * `POST /queueIntegration/testSession`: one real detectIntent with the dialog's settings (a fresh
 * session). The mask with the `id` of a saved integration tests with its stored key.
 */
export async function testQueueIntegration(ctx: AppContext, by: AuthUser, body: z.output<typeof testQueueIntegrationBody>) {
  let jsonContent = body.jsonContent;
  if (jsonContent === SECRET_MASK) {
    const row = body.id ? await findQueueIntegration(ctx.db, by.companyId, body.id) : undefined;
    if (!row) throw notFound();
    jsonContent = storedKeyOf(ctx, row);
  }
  try {
    const result = await detectIntent({
      apiUrl: ctx.config.integrations.dialogflowApiUrl,
      timeoutMs: ctx.config.integrations.timeoutMs,
      jsonContent,
      projectName: body.projectName,
      language: body.language,
      sessionId: newSessionId(),
      text: body.text || 'Olá',
    });
    return { message: 'ok', replies: result.replies };
  } catch (err) {
    if (err instanceof DialogflowError) throw new AppError('ERR_INTEGRATION_TEST_FAILED', 400, err.message);
    throw err;
  }
}
