import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import { discardSpools } from '../storage/spool.js';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { APP_VERSION } from '@balcao/contracts';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { mkdirSync } from 'node:fs';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { z } from 'zod';
import type { Config } from '../config.js';
import { createDb } from '../db/client.js';
import { registerAuthRoutes } from '../modules/auth/routes.js';
import { registerBillingRoutes } from '../modules/billing/routes.js';
import { registerChatRoutes } from '../modules/chats/routes.js';
import { webhookOutbox, webhookOutboxInterest } from '../modules/webhooks/outbox.js';
import { webhookRecorder } from '../modules/webhooks/recorder.js';
import { registerOutboundWebhookRoutes } from '../modules/webhooks/routes.js';
import { registerAuditRoutes } from '../modules/audit/routes.js';
import { registerBrandingRoutes } from '../modules/branding/routes.js';
import { registerCompanyRoutes } from '../modules/companies/routes.js';
import { registerContactRoutes } from '../modules/contacts/routes.js';
import { registerContactListRoutes } from '../modules/contact-lists/routes.js';
import { registerCampaignRoutes } from '../modules/campaigns/routes.js';
import { registerDashboardRoutes } from '../modules/dashboard/routes.js';
import { registerReportRoutes } from '../modules/reports/routes.js';
import { registerHelpRoutes } from '../modules/helps/routes.js';
import { registerAnnouncementRoutes } from '../modules/announcements/routes.js';
import { Readiness } from '../modules/health/readiness.js';
import { registerHealthRoutes } from '../modules/health/routes.js';
import { laneRollbackOnCustomerMessage } from '../modules/kanban/lanes.js';
import { registerKanbanRoutes } from '../modules/kanban/routes.js';
import { registerMessageRoutes } from '../modules/messages/routes.js';
import { registerMessagesApiRoutes } from '../modules/messages-api/routes.js';
import { registerQuickMessageRoutes } from '../modules/quick-messages/routes.js';
import { registerPlanRoutes } from '../modules/plans/routes.js';
import { registerQueueRoutes } from '../modules/queues/routes.js';
import { registerPromptRoutes } from '../modules/prompts/routes.js';
import { registerChatbotRoutes } from '../modules/chatbots/routes.js';
import { registerQueueIntegrationRoutes } from '../modules/queue-integrations/routes.js';
import { registerFileListRoutes } from '../modules/files/routes.js';
import { registerScheduleRoutes } from '../modules/schedules/routes.js';
import { registerSettingsRoutes } from '../modules/settings/routes.js';
import { registerTagRoutes } from '../modules/tags/routes.js';
import { registerTicketNoteRoutes } from '../modules/ticket-notes/routes.js';
import { registerTicketListRoutes } from '../modules/tickets/list-routes.js';
import { registerTicketRoutes } from '../modules/tickets/routes.js';
import { registerUserRoutes } from '../modules/users/routes.js';
import { registerVersionRoutes } from '../modules/version/routes.js';
import { registerWebhookRoutes } from '../channels/meta/routes.js';
import { conversationSink } from '../modules/conversations/sink.js';
import { inboundQueue } from '../modules/conversations/ingest.js';
import { registerWhatsappRoutes } from '../modules/whatsapp/routes.js';
import { Channels, type ChannelDeps } from '../channels/index.js';
import { EventBus } from '../events/bus.js';
import { refuseRevokedFamilies } from '../realtime/families.js';
import { emitDomainEvent } from '../realtime/relay.js';
import { Realtime } from '../realtime/server.js';
import { MediaStorage, publicFileHeaders } from '../storage/media.js';
import { S3MediaStore } from '../storage/s3.js';
import { registerBucketMedia } from '../storage/serve.js';
import type { Secrets } from '../secrets.js';
import { hoistPermissionGuards, makeAuthenticate } from './auth.js';
import { apiCompression } from './compression.js';
import { cleanRequestStrings } from './clean-input.js';
import { BackgroundTasks } from './background.js';
import type { AppContext } from './context.js';
import { AppError, registerErrorHandler, registerNotFoundHandler } from './errors.js';
import { loggerOptions } from './logger.js';
import { builtinImagesDir, publicDir } from './uploads.js';

export interface AppDeps {
  config: Config;
  secrets: Secrets;
  pool: pg.Pool;
  /** Defaults to a pino logger at config.logLevel. */
  logger?: FastifyBaseLogger;
  /** The job queue (main passes it; outbox retries are scheduled on it). */
  boss?: PgBoss;
  /** Channel wiring: tests pass a fake Baileys socket factory. */
  channels?: ChannelDeps;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

/** Builds the API (routes, plugins, socket.io) without listening: main listens, tests use `inject` or listen on port 0. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: loggerOptions(config.logLevel) }),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // Clients of this API family call `/contacts/`, `/tags/`, …: every route answers with or without the slash.
    routerOptions: { ignoreTrailingSlash: true },
    // One line per request only when debugging.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = createDb(deps.pool);
  const realtime = new Realtime(app.server, { db, secrets: deps.secrets, corsOrigin: config.frontendUrl, log: app.log, redisUrl: config.redisUrl });
  const channels = new Channels(config, deps.channels);
  const bucket = config.s3 ? new S3MediaStore(config.s3) : undefined;
  const storage = new MediaStorage(config.dataDir, config.mediaLimitBytes, bucket);
  const background = new BackgroundTasks(app.log);
  const events = new EventBus(app.log);
  events.subscribe((event) => emitDomainEvent(realtime, event));
  refuseRevokedFamilies(realtime, db);
  const ctx: AppContext = { config, secrets: deps.secrets, db, realtime, events, storage, channels, log: app.log, boss: deps.boss, background, readiness: new Readiness({ db, boss: deps.boss, redisUrl: config.redisUrl }) };
  events.subscribe(laneRollbackOnCustomerMessage(ctx));
  events.subscribe((e) => {
    if (e.type === 'company.record' && e.name === 'whatsapp') channels.meta.forgetConnections();
  });
  events.subscribeInTransaction(webhookOutbox(db), webhookOutboxInterest(db));
  events.subscribe(webhookRecorder(ctx));
  const sink = conversationSink(ctx);
  channels.bind({ db, log: app.log, mediaLimitBytes: storage.limitBytes, sink });
  app.decorate('ctx', ctx);
  app.decorateRequest('auth', null);
  // Before the HTTP server closes: open websockets would otherwise keep it from closing.
  // Sockets first (no new ones; their handlers finish), then the sends in flight, then the channels they went through.
  app.addHook('preClose', async () => {
    await realtime.close();
    await background.drain();
    await channels.close();
    await background.drain();
  });
  // Requests still in flight when closing began may have started more work: the pool ends after it.
  app.addHook('onClose', async () => {
    await background.drain();
    await inboundQueue(ctx).close();
    bucket?.close();
  });

  registerErrorHandler(app);
  // At the root, so the OpenAPI document lists the routes of both scopes below.
  await app.register(swagger, {
    openapi: {
      info: { title: 'Balcão API', version: APP_VERSION },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // POST /api/messages/send: the connection's token (its edit dialog), not a user session.
          connectionToken: { type: 'http', scheme: 'bearer', description: 'The token of a connection (Connections → edit → Token)' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  // Two sibling scopes: the browser API's plugins (security headers, CORS, cookies, compression, multipart,
  // rate limit) and hooks stay inside the first, so the channel webhooks, posted by servers at our busiest,
  // run none of them. Siblings, because fastify adds a parent's hooks to its children, even later ones.
  await app.register(async (api) => registerBrowserApi(api, ctx, bucket));
  await registerWebhookRoutes(app, { meta: config.meta, sink });

  return app;
}

/** Every route a browser or an API client calls: the plugins and hooks they all run, then the routes. */
async function registerBrowserApi(app: FastifyInstance, ctx: AppContext, bucket: S3MediaStore | undefined): Promise<void> {
  const { config, storage } = ctx;
  // Here, so unknown URLs answer with the same headers (security, CORS) as the routes.
  registerNotFoundHandler(app);
  // Uploads spooled by a request and not stored (refused, failed, copied to the bucket) go once it is answered.
  app.addHook('onResponse', async (req) => discardSpools(req));
  // The API is called from the web app's origin and serves /public images to it.
  await app.register(helmet, { crossOriginResourcePolicy: { policy: 'cross-origin' }, contentSecurityPolicy: false });
  await app.register(cors, { origin: config.frontendUrl, credentials: true, methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] });
  await app.register(cookie);
  await app.register(compress, apiCompression);
  await app.register(multipart, { limits: { fileSize: config.uploadLimitBytes, files: config.uploadMaxFiles, fields: 50, fieldSize: 1024 * 1024 } });
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.globalPerMinute,
    timeWindow: 60_000,
    errorResponseBuilder: () => new AppError('ERR_TOO_MANY_REQUESTS', 429),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const publicRoot = publicDir(config.dataDir);
  mkdirSync(publicRoot, { recursive: true });
  // The served type comes from our allow-list, never from the name `send` would read it from.
  const servePublic = (root: string, prefix: string) =>
    app.register(fastifyStatic, {
      root,
      prefix,
      decorateReply: false,
      index: false,
      contentType: false,
      setHeaders: (res, path) => {
        for (const [name, value] of Object.entries(publicFileHeaders(path))) res.setHeader(name, value);
      },
    });
  if (bucket) registerBucketMedia(app, storage);
  else await servePublic(publicRoot, '/public/');
  // Built-in images (default avatar, branding defaults) ship with the server, whatever DATA_DIR holds.
  await servePublic(builtinImagesDir, '/public/app/');

  const authenticate = makeAuthenticate(ctx);
  app.addHook('onRoute', hoistPermissionGuards);
  app.addHook('preValidation', cleanRequestStrings);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/health', { schema: { hide: true, response: { 200: z.object({ status: z.literal('ok') }) } }, config: { rateLimit: false } }, async () => ({
    status: 'ok' as const,
  }));
  registerHealthRoutes(app, ctx);
  // First: its hook audits the administrative routes registered after it.
  registerAuditRoutes(app, ctx, authenticate);
  registerAuthRoutes(app, ctx, authenticate);
  registerPlanRoutes(app, ctx, authenticate);
  registerCompanyRoutes(app, ctx, authenticate);
  registerHelpRoutes(app, ctx, authenticate);
  registerAnnouncementRoutes(app, ctx, authenticate);
  registerQueueRoutes(app, ctx, authenticate);
  registerChatbotRoutes(app, ctx, authenticate);
  registerBrandingRoutes(app, ctx, authenticate);
  registerUserRoutes(app, ctx, authenticate);
  registerSettingsRoutes(app, ctx, authenticate);
  registerVersionRoutes(app, ctx, authenticate);
  registerWhatsappRoutes(app, ctx, authenticate);
  registerTicketListRoutes(app, ctx, authenticate);
  registerTicketRoutes(app, ctx, authenticate);
  registerMessageRoutes(app, ctx, authenticate);
  registerMessagesApiRoutes(app, ctx);
  registerQuickMessageRoutes(app, ctx, authenticate);
  registerContactRoutes(app, ctx, authenticate);
  registerTagRoutes(app, ctx, authenticate);
  registerTicketNoteRoutes(app, ctx, authenticate);
  registerKanbanRoutes(app, ctx, authenticate);
  registerDashboardRoutes(app, ctx, authenticate);
  registerReportRoutes(app, ctx, authenticate);
  registerScheduleRoutes(app, ctx, authenticate);
  registerContactListRoutes(app, ctx, authenticate);
  registerCampaignRoutes(app, ctx, authenticate);
  registerPromptRoutes(app, ctx, authenticate);
  registerBillingRoutes(app, ctx, authenticate);
  registerChatRoutes(app, ctx, authenticate);
  registerOutboundWebhookRoutes(app, ctx, authenticate);
  registerQueueIntegrationRoutes(app, ctx, authenticate);
  registerFileListRoutes(app, ctx, authenticate);
}
