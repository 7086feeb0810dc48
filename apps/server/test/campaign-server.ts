/**
 * The product's job workers (src/main.ts: outbox and campaign engine on pg-boss) as a child
 * process a test can kill -9 mid-campaign: external database (DATABASE_URL), Meta channel
 * pointed at a fake Graph (GRAPH_API_URL). Says `{ ready: true }` once its workers run.
 */
import { parseConfig } from '../src/config.js';
import { createPool } from '../src/db/client.js';
import { buildApp } from '../src/http/app.js';
import { startJobs } from '../src/jobs/boss.js';
import { registerCampaignJobs } from '../src/jobs/campaigns.js';
import { registerChannelJobs } from '../src/jobs/channels.js';

const env = process.env;
const config = parseConfig({ ...env, LOG_LEVEL: 'warn' } as Record<string, string>);
const secrets = { jwtSecret: 'crash-access-secret-'.padEnd(48, 'x'), jwtRefreshSecret: 'crash-refresh-secret-'.padEnd(48, 'y') };
const app = await buildApp({ config, secrets, pool: createPool(env.DATABASE_URL!) });
const boss = await startJobs(env.DATABASE_URL!, app.log);
app.ctx.boss = boss;
await registerChannelJobs(boss, app.ctx);
await registerCampaignJobs(boss, app.ctx);
process.send!({ ready: true });
