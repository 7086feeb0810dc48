import type { Readiness as ReadinessAnswer, ReadinessCheckName } from '@balcao/contracts';
import { sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { Db } from '../../db/client.js';
import { pingRedis } from './redis-ping.js';

const CHECK_TIMEOUT_MS = 2_000;

type Outcome = 'ok' | 'fail' | 'skipped';

/**
 * What `/readyz` reports: whether this node should be given traffic. Draining
 * (SIGTERM received) answers not ready at once, so a balancer stops routing here
 * while in-flight work finishes.
 */
export class Readiness {
  private draining = false;
  private jobsStopped = false;

  constructor(
    private readonly deps: { db: Db; boss?: PgBoss; redisUrl?: string },
  ) {
    deps.boss?.on('stopped', () => (this.jobsStopped = true));
  }

  startDraining(): void {
    this.draining = true;
  }

  async check(): Promise<ReadinessAnswer> {
    const [database, redis] = await Promise.all([
      withTimeout(this.deps.db.execute(sql`select 1`).then(() => true)),
      this.deps.redisUrl ? pingRedis(this.deps.redisUrl, CHECK_TIMEOUT_MS) : undefined,
    ]);
    const checks: Record<ReadinessCheckName, Outcome> = {
      draining: this.draining ? 'fail' : 'ok',
      database: database ? 'ok' : 'fail',
      jobs: this.deps.boss && !this.jobsStopped ? 'ok' : 'fail',
      redis: redis === undefined ? 'skipped' : redis ? 'ok' : 'fail',
    };
    const failing = (Object.keys(checks) as ReadinessCheckName[]).filter((name) => checks[name] === 'fail');
    return { status: failing.length ? 'not_ready' : 'ready', checks, failing };
  }
}

/** A pool that was ended throws; one that hangs (database gone) must not hang the probe. */
async function withTimeout(probe: Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([probe.catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
