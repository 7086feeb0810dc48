import type PgBoss from 'pg-boss';
import type { AppContext } from '../../http/context.js';
import { runInvoiceJob } from './invoices.js';

const INVOICE_JOB = 'invoices';

/** Hourly, and once at boot: each company's invoice for its coming period (idempotent, so any node may run it). */
export async function registerBillingJobs(boss: PgBoss, ctx: AppContext): Promise<void> {
  await boss.createQueue(INVOICE_JOB);
  await boss.schedule(INVOICE_JOB, '0 * * * *');
  await boss.work(INVOICE_JOB, async () => {
    await runInvoiceJob(ctx);
  });
  await boss.send(INVOICE_JOB, {});
}
