import type PgBoss from 'pg-boss';
import type { AppContext } from '../../http/context.js';
import { deliverWebhook, sweepWebhooks, WEBHOOK_DELIVER_JOB, WEBHOOK_SWEEP_JOB } from './delivery.js';

/** The outbound webhook workers: one job per attempt (retries are queued for their time), and a minute sweep for lost ones. */
export async function registerWebhookJobs(boss: PgBoss, ctx: AppContext): Promise<void> {
  await boss.createQueue(WEBHOOK_DELIVER_JOB);
  await boss.work<{ id: number }>(WEBHOOK_DELIVER_JOB, { pollingIntervalSeconds: 0.5, batchSize: 20 }, async (jobs) => {
    await Promise.all(jobs.map((j) => deliverWebhook(ctx, j.data.id)));
  });
  await boss.createQueue(WEBHOOK_SWEEP_JOB);
  await boss.schedule(WEBHOOK_SWEEP_JOB, '* * * * *');
  await boss.work(WEBHOOK_SWEEP_JOB, async () => {
    await sweepWebhooks(ctx);
  });
}
