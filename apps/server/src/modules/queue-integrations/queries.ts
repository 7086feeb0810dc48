import { SECRET_MASK, type QueueIntegration } from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { queueIntegrations, queues } from '../../db/schema/index.js';
import { hasPlanFlag } from '../../http/plan.js';
import { AppError } from '../../http/errors.js';

export type QueueIntegrationRow = typeof queueIntegrations.$inferSelect;

/** The one place that shapes an integration for the API and the socket: the service-account key stays sealed here. */
export function presentQueueIntegration(row: QueueIntegrationRow): QueueIntegration {
  const { jsonContent, createdAt, updatedAt, ...rest } = row;
  return { ...rest, jsonContent: jsonContent ? SECRET_MASK : null, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

export async function findQueueIntegration(db: DbOrTx, companyId: number, id: number): Promise<QueueIntegrationRow | undefined> {
  const [row] = await db
    .select()
    .from(queueIntegrations)
    .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, id)));
  return row;
}

/** An integration id a form refers to (connection, queue) must be the company's: 400 on the field otherwise, never the FK's 500. */
export async function assertOwnIntegration(db: DbOrTx, companyId: number, id: number | null | undefined, path = 'integrationId'): Promise<void> {
  if (id && !(await findQueueIntegration(db, companyId, id))) throw new AppError('ERR_VALIDATION', 400, 'unknown integration', [{ path, message: 'unknown integration' }]);
}

/**
 * The integration a queue of the company hands its tickets to (its `integrationId`, issue 16):
 * null when it has none or the company's plan lacks `useIntegrations` (the queue then behaves as without one).
 */
export async function queueIntegrationOf(db: DbOrTx, companyId: number, queueId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: queueIntegrations.id })
    .from(queues)
    .innerJoin(queueIntegrations, and(eq(queueIntegrations.id, queues.integrationId), eq(queueIntegrations.companyId, companyId)))
    .where(and(eq(queues.id, queueId), eq(queues.companyId, companyId)));
  return row && (await hasPlanFlag(db, companyId, 'useIntegrations')) ? row.id : null;
}
