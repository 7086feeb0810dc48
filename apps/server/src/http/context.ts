import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Realtime } from '../realtime/server.js';
import type { Secrets } from '../secrets.js';

/** What routes and services need, built once per app (tests build one per file). */
export interface AppContext {
  config: Config;
  secrets: Secrets;
  db: Db;
  realtime: Realtime;
}
