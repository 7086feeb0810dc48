import type PgBoss from 'pg-boss';
import type { AppContext } from '../../http/context.js';
import { INTEGRATION_RETRY_JOB, relayToIntegration, type RelayJob } from './relay.js';

/** The delayed retries of a failed integration relay (each job is one more attempt). */
export async function registerIntegrationJobs(boss: PgBoss, ctx: AppContext): Promise<void> {
  await boss.createQueue(INTEGRATION_RETRY_JOB);
  await boss.work<RelayJob>(INTEGRATION_RETRY_JOB, { pollingIntervalSeconds: 1, batchSize: 5 }, async (jobs) => {
    for (const job of jobs) await relayToIntegration(ctx, job.data);
  });
}
