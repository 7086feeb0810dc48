import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Tx } from '../db/client.js';

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

/**
 * pg-boss's `db` option over an open drizzle transaction: a job sent with it is inserted by
 * that transaction, so it exists exactly when the transaction's other writes commit.
 */
export function jobsInTransaction(tx: Tx): PgBoss.Db {
  // drizzle's node-postgres transaction runs on one pool client, kept on its session.
  const client = (tx as unknown as { session: { client: Pick<pg.PoolClient, 'query'> } }).session.client;
  return { executeSql: (text, values) => client.query(text, values) };
}
