import type PgBoss from 'pg-boss';
import type { AppContext } from '../http/context.js';
import { CAMPAIGN_SWEEP_JOB, CAMPAIGN_TICK_JOB, runCampaign, sweepCampaigns } from '../modules/campaigns/engine.js';
import { checkUncheckedNumbers, VALIDITY_JOB } from '../modules/contact-lists/validity.js';

/** Contact-list number checks (one queued per company) and the campaign engine's workers. */
export async function registerCampaignJobs(boss: PgBoss, ctx: AppContext): Promise<void> {
  await boss.createQueue(VALIDITY_JOB, { name: VALIDITY_JOB, policy: 'short' });
  await boss.work<{ companyId: number }>(VALIDITY_JOB, async ([job]) => {
    if (job) await checkUncheckedNumbers(ctx, job.data.companyId);
  });
  // A tick per campaign at its nextRunAt (polled every half second); the minute sweep catches lost jobs and runs due campaigns at boot.
  await boss.createQueue(CAMPAIGN_TICK_JOB, { name: CAMPAIGN_TICK_JOB, policy: 'short' });
  await boss.work<{ id: number }>(CAMPAIGN_TICK_JOB, { pollingIntervalSeconds: 0.5, batchSize: 4 }, async (jobs) => {
    for (const job of jobs) await runCampaign(ctx, job.data.id);
  });
  await boss.createQueue(CAMPAIGN_SWEEP_JOB);
  await boss.schedule(CAMPAIGN_SWEEP_JOB, '* * * * *');
  await boss.work(CAMPAIGN_SWEEP_JOB, async () => {
    await sweepCampaigns(ctx);
  });
  ctx.background.run('campaign sweep at boot', () => sweepCampaigns(ctx));
}
