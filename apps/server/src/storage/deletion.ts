import type PgBoss from 'pg-boss';
import type { Tx } from '../db/client.js';
import type { AppContext } from '../http/context.js';
import { jobsInTransaction } from '../jobs/boss.js';

/**
 * A deleted company's files (its folder, every object under `company{id}/` in the bucket)
 * are removed by a pg-boss job queued in the transaction that deletes the company: the job
 * exists if and only if the delete committed, survives restarts, and every node may run it.
 * Removing a prefix is idempotent, so a retry (or two nodes running it) is harmless.
 */
export const COMPANY_MEDIA_DELETE_JOB = 'company-media-delete';

/** With the default 30 s first delay, doubling (with jitter): 1.5 to 3 days of an unreachable bucket before the job is `failed`. */
const RETRY_LIMIT = 12;
/** A node killed mid-way leaves the job `active`: pg-boss expires it after this and another node (or the same) retries it. */
const EXPIRE_SECONDS = 300;

export async function queueCompanyMediaDeletion(boss: PgBoss, tx: Tx, retrySeconds: number, companyId: number): Promise<void> {
  await boss.send(
    COMPANY_MEDIA_DELETE_JOB,
    { companyId },
    { db: jobsInTransaction(tx), retryLimit: RETRY_LIMIT, retryDelay: retrySeconds, retryBackoff: true, expireInSeconds: EXPIRE_SECONDS },
  );
}

export async function registerCompanyMediaDeletionJob(boss: PgBoss, ctx: AppContext): Promise<void> {
  await boss.createQueue(COMPANY_MEDIA_DELETE_JOB);
  await boss.work<{ companyId: number }>(COMPANY_MEDIA_DELETE_JOB, async (jobs) => {
    for (const { data } of jobs) {
      await ctx.storage.removeCompany(data.companyId);
      ctx.log.info({ companyId: data.companyId }, 'deleted company media removed');
    }
  });
}
