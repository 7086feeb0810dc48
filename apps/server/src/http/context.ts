import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Channels } from '../channels/index.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { EventBus } from '../events/bus.js';
import type { Realtime } from '../realtime/server.js';
import type { Readiness } from '../modules/health/readiness.js';
import type { Secrets } from '../secrets.js';
import type { MediaStorage } from '../storage/media.js';
import type { BackgroundTasks } from './background.js';

/** What routes and services need, built once per app (tests build one per file). */
export interface AppContext {
  config: Config;
  secrets: Secrets;
  db: Db;
  realtime: Realtime;
  /** After-commit domain events: commands publish, realtime/ (and later webhooks, counters) subscribe. */
  events: EventBus;
  storage: MediaStorage;
  channels: Channels;
  log: FastifyBaseLogger;
  background: BackgroundTasks;
  /** The job queue, when this process runs one (main does; most tests do not). */
  boss?: PgBoss;
  /** What /readyz answers; main starts draining it on SIGTERM. */
  readiness: Readiness;
}
