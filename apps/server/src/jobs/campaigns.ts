import type PgBoss from 'pg-boss';
import type { AppContext } from '../http/context.js';
import { checkUncheckedNumbers, VALIDITY_JOB } from '../modules/contact-lists/validity.js';

/** Contact-list number checks (one queued per company) and the campaign engine's workers. */
export async function registerCampaignJobs(boss: PgBoss, ctx: AppContext): Promise<void> {
  await boss.createQueue(VALIDITY_JOB, { name: VALIDITY_JOB, policy: 'short' });
  await boss.work<{ companyId: number }>(VALIDITY_JOB, async ([job]) => {
    if (job) await checkUncheckedNumbers(ctx, job.data.companyId);
  });
}
