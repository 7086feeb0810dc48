import pino from 'pino';
import type PgBoss from 'pg-boss';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from './config.js';
import { createPool } from './db/client.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded.js';
import { migrateAndSeed } from './db/migrate.js';
import { buildApp } from './http/app.js';
import { loggerOptions } from './http/logger.js';
import { buildWebApp } from './http/web.js';
import { startJobs, stopJobs } from './jobs/boss.js';
import { registerContactPictureJob } from './modules/contacts/picture.js';
import { registerCompanyMediaDeletionJob } from './storage/deletion.js';
import { registerChannelJobs } from './jobs/channels.js';
import { registerScheduleJobs } from './jobs/schedules.js';
import { registerCampaignJobs } from './jobs/campaigns.js';
import { registerBillingJobs } from './modules/billing/jobs.js';
import { registerWebhookJobs } from './modules/webhooks/jobs.js';
import { registerIntegrationJobs } from './modules/queue-integrations/jobs.js';
import { registerDashboardJobs } from './modules/dashboard/compaction.js';
import { resumeInboundEvents } from './modules/conversations/ingest.js';
import { resumeWhatsappSessions, startSessionLeases } from './modules/whatsapp/resume.js';
import { resolveSecrets, storedSecret } from './secrets.js';

const DATABASE_NAME = 'balcao';

/**
 * Closes the API once its in-flight requests are answered. Keep-alive connections that
 * were busy when closing began turn idle afterwards and would hold the server open until
 * the client drops them: they are closed as they go idle.
 */
async function closeServer(api: FastifyInstance): Promise<void> {
  const idle = setInterval(() => api.server.closeIdleConnections(), 100);
  try {
    await api.close();
  } finally {
    clearInterval(idle);
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const log = pino(loggerOptions(config.logLevel));
  const secrets = resolveSecrets(config);

  let embedded: EmbeddedPostgres | undefined;
  let boss: PgBoss | undefined;
  let api: FastifyInstance | undefined;
  let web: FastifyInstance | undefined;
  let pool: ReturnType<typeof createPool> | undefined;
  let shuttingDown = false;

  const shutdown = async (reason: string, code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info(`shutting down (${reason})`);
    const force = setTimeout(() => process.exit(code || 1), 20_000);
    force.unref();
    const step = async (name: string, fn: () => Promise<unknown>) => {
      const started = Date.now();
      try {
        await fn();
        log.info(`shutdown: ${name} done in ${Date.now() - started} ms`);
      } catch (err) {
        log.error({ err }, `shutdown: ${name} failed`);
      }
    };
    // Drain (docs/operations.md): /readyz answers 503 from now on, so a balancer stops routing here.
    api?.ctx.readiness.startDraining();
    if (web) await step('web server', () => web!.close());
    // No new requests or sockets; in-flight requests and the sends they started finish; WhatsApp sockets close, still linked.
    if (api) await step('API server and sockets', () => closeServer(api!));
    // Running jobs (outbox retries, sweeps) finish; then whatever they started in the background.
    if (boss) await step('pg-boss', () => stopJobs(boss!));
    if (api) await step('background work', () => api!.ctx.background.drain());
    if (pool) await step('database pool', () => pool!.end());
    if (embedded) await step('embedded PostgreSQL', () => embedded!.stop());
    log.info('bye');
    process.exit(code);
  };
  process.once('SIGINT', () => void shutdown('SIGINT', 0));
  process.once('SIGTERM', () => void shutdown('SIGTERM', 0));

  try {
    let connectionString = config.databaseUrl;
    if (!connectionString) {
      embedded = await startEmbeddedPostgres({
        dataDir: config.dataDir,
        password: storedSecret(config.dataDir, 'postgresPassword'),
        database: DATABASE_NAME,
        log: (msg) => log.info(msg),
      });
      connectionString = embedded.connectionString();
    }
    const seeded = await migrateAndSeed(connectionString, { adminEmail: config.adminEmail, adminPassword: config.adminPassword });
    pool = createPool(connectionString);
    boss = await startJobs(connectionString, log);

    api = await buildApp({ config, secrets, pool, logger: log, boss });
    await registerChannelJobs(boss, api.ctx);
    await registerContactPictureJob(boss, api.ctx);
    await registerCompanyMediaDeletionJob(boss, api.ctx);
    await registerScheduleJobs(boss, api.ctx);
    await registerCampaignJobs(boss, api.ctx);
    await registerBillingJobs(boss, api.ctx);
    await registerWebhookJobs(boss, api.ctx);
    await registerIntegrationJobs(boss, api.ctx);
    await registerDashboardJobs(boss, api.ctx);
    // What a previous run acknowledged but did not finish goes first, before new traffic (issue 9 point 7).
    await resumeInboundEvents(api.ctx);
    if (config.startWhatsappSessions) {
      await resumeWhatsappSessions(api.ctx);
      await startSessionLeases(api.ctx, { connectionString });
    }
    await api.listen({ port: config.port, host: '0.0.0.0' });
    if (config.serveWeb) {
      web = await buildWebApp(config, log);
      await web.listen({ port: config.webPort, host: '0.0.0.0' });
    }

    const lines = [
      '',
      `  Balcão is running`,
      `  API on http://localhost:${config.port}  (docs: http://localhost:${config.port}/docs)`,
      config.serveWeb ? `  Web on http://localhost:${config.webPort}` : '  Web app not served (SERVE_WEB=false)',
      `  Database: ${embedded ? `embedded PostgreSQL on 127.0.0.1:${embedded.port}, data in ${config.dataDir}` : 'DATABASE_URL'}`,
      `  Super user: ${seeded.superEmails.join(', ')}`,
    ];
    if (seeded.generatedPassword) {
      lines.push(`  Generated password (shown only this once): ${seeded.generatedPassword}`);
    }
    console.log(lines.join('\n') + '\n');
  } catch (err) {
    log.fatal({ err }, 'boot failed');
    await shutdown('boot failure', 1);
  }
}

void main();
