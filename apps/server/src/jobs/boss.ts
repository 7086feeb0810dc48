import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';

/** pg-boss in the same database (schema `pgboss`). Workers arrive with later issues. */
export async function startJobs(connectionString: string, log: FastifyBaseLogger): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString, schema: 'pgboss', max: 4 });
  boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
  await boss.start();
  return boss;
}

export async function stopJobs(boss: PgBoss): Promise<void> {
  await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
}
