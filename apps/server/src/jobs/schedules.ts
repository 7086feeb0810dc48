import type PgBoss from 'pg-boss';
import type { AppContext } from '../http/context.js';
import { runScheduleJobs, SCHEDULE_SEND_JOB, SCHEDULE_SWEEP_JOB, sweepSchedules } from '../modules/schedules/engine.js';

/** Batches of due jobs handled at once by one process. */
const SEND_WORKERS = 3;

/**
 * The schedule engine's workers: one job per occurrence, due at its `sendAt` (polled
 * every half second, so a send is at most about a second late), and a minute sweep.
 * The sweep also runs once now: schedules that fell due while the server was down go out at boot.
 */
export async function registerScheduleJobs(boss: PgBoss, ctx: AppContext): Promise<void> {
  // 'short': one queued job per singleton key, so saving a schedule again queues no second job for the same time.
  await boss.createQueue(SCHEDULE_SEND_JOB, { name: SCHEDULE_SEND_JOB, policy: 'short' });
  // Several workers: a batch waits on the database far more than it computes, so a due minute's batches overlap (the row claim keeps them apart).
  for (let i = 0; i < SEND_WORKERS; i++) {
    await boss.work<{ id: number }>(SCHEDULE_SEND_JOB, { pollingIntervalSeconds: 0.5, batchSize: 100 }, async (jobs) => {
      await runScheduleJobs(
        ctx,
        jobs.map((j) => j.data.id),
      );
    });
  }
  await boss.createQueue(SCHEDULE_SWEEP_JOB);
  await boss.schedule(SCHEDULE_SWEEP_JOB, '* * * * *');
  await boss.work(SCHEDULE_SWEEP_JOB, async () => {
    await sweepSchedules(ctx);
  });
  ctx.background.run('schedule sweep at boot', () => sweepSchedules(ctx));
}
