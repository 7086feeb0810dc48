import type PgBoss from 'pg-boss';
import type { AppContext } from '../http/context.js';
import { runTicketTimers } from '../modules/conversations/behaviours/timers.js';
import { rotateQueueTickets } from '../modules/conversations/behaviours/router.js';
import { sweepInboundEvents } from '../modules/conversations/ingest.js';
import { deliver, OUTBOX_RETRY_JOB, sweepOutbox } from '../modules/conversations/outbound.js';
import { failInterruptedBatches } from '../modules/conversations/outbound-deliver-batch.js';
import { runLaneAutomation } from '../modules/kanban/lanes.js';

const EVERY_MINUTE = '* * * * *';
const SWEEPS = {
  'outbox-sweep': async (ctx: AppContext) => (await failInterruptedBatches(ctx)) + (await sweepOutbox(ctx)),
  'inbound-sweep': (ctx: AppContext) => sweepInboundEvents(ctx),
  'ticket-timers': (ctx: AppContext) => runTicketTimers(ctx),
  'queue-router': (ctx: AppContext) => rotateQueueTickets(ctx),
  'kanban-lanes': (ctx: AppContext) => runLaneAutomation(ctx),
} as const;

/**
 * Channel workers: a retry job per failed send (scheduled with its backoff by the
 * outbox), plus minute sweeps that catch whatever a crash or a lost job left behind
 * (unsent outbox rows, unprocessed webhook events) and run the ticket timers
 * (inactivity, expiry, NPS), the queues' router rotation and the kanban lane automation. Every sweep claims rows atomically, so several nodes may run them.
 */
export async function registerChannelJobs(boss: PgBoss, ctx: AppContext): Promise<void> {
  await boss.createQueue(OUTBOX_RETRY_JOB);
  await boss.work<{ messageId: number }>(OUTBOX_RETRY_JOB, { pollingIntervalSeconds: 0.5, batchSize: 10 }, async (jobs) => {
    for (const job of jobs) await deliver(ctx, job.data.messageId, 'retry');
  });
  for (const [name, run] of Object.entries(SWEEPS)) {
    await boss.createQueue(name);
    await boss.schedule(name, EVERY_MINUTE);
    await boss.work(name, async () => {
      await run(ctx);
    });
  }
}
