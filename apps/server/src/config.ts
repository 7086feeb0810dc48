import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The repository root (apps/server/src → ../../..): relative paths resolve against it, whatever the cwd. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const optionalSecret = z.string().min(32, 'must be at least 32 characters').optional();

const envSchema = z.object({
  PORT: port.default(8080),
  WEB_PORT: port.default(3000),
  API_URL: z.url().optional(),
  FRONTEND_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://').optional(),
  ADMIN_EMAIL: z.string().trim().toLowerCase().pipe(z.email()).default('admin@balcao.local'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(200).optional(),
  JWT_SECRET: optionalSecret,
  JWT_REFRESH_SECRET: optionalSecret,
  DATA_ENCRYPTION_KEY: optionalSecret,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SERVE_WEB: bool.default(true),
  REDIS_URL: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  RATE_LIMIT_MAX: positiveInt.default(6000),
  TRUST_PROXY: bool.default(false),
  LOGIN_MAX_PER_IP: positiveInt.default(30),
  LOGIN_MAX_PER_EMAIL: positiveInt.default(10),
  LOGIN_MAX_PER_ACCOUNT: positiveInt.default(100),
  MESSAGES_API_MAX_PER_MINUTE: positiveInt.default(1200),
  BODY_LIMIT_MB: positiveInt.default(2),
  UPLOAD_LIMIT_MB: positiveInt.default(20),
  UPLOAD_MAX_FILES: positiveInt.default(10),
  FACEBOOK_APP_ID: z.string().optional(),
  FACEBOOK_APP_SECRET: z.string().optional(),
  VERIFY_TOKEN: z.string().optional(),
  SUPPORT_WHATSAPP: z.string().regex(/^\+?\d{8,15}$/).optional(),
  GRAPH_API_URL: z.url().default('https://graph.facebook.com/v21.0'),
  MEDIA_LIMIT_MB: positiveInt.default(64),
  MEDIA_DELETE_RETRY_SECONDS: positiveInt.default(30),
  OUTBOX_RETRY_BASE_MS: positiveInt.default(2000),
  OUTBOX_MAX_ATTEMPTS: positiveInt.default(6),
  WEBHOOK_RETRY_BASE_MS: positiveInt.default(10_000),
  WEBHOOK_MAX_ATTEMPTS: positiveInt.default(8),
  WHATSAPP_SESSIONS: bool.default(true),
  EFI_CLIENT_ID: z.string().optional(),
  EFI_CLIENT_SECRET: z.string().optional(),
  EFI_API_URL: z.url().default('https://pix.api.efipay.com.br'),
  EFI_CERT_PATH: z.string().optional(),
  EFI_CERT_PASSWORD: z.string().optional(),
  EFI_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  PIX_KEY: z.string().max(77).optional(),
  PIX_MERCHANT_NAME: z.string().max(25).default('Balcao'),
  PIX_MERCHANT_CITY: z.string().max(15).default('Sao Paulo'),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  AZURE_SPEECH_URL: z.url().optional(),
  AI_TIMEOUT_MS: positiveInt.default(30_000),
  DIALOGFLOW_API_URL: z.url().default('https://dialogflow.googleapis.com'),
  INTEGRATION_TIMEOUT_MS: positiveInt.default(10_000),
  INTEGRATION_RETRY_BASE_MS: positiveInt.default(5000),
  INTEGRATION_MAX_ATTEMPTS: positiveInt.default(3),
});

export interface Config {
  port: number;
  webPort: number;
  apiUrl: string;
  frontendUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminEmail: string;
  adminPassword: string | undefined;
  /** Taken from the environment; when absent, main resolves them from DATA_DIR/secrets.json. */
  jwtSecret: string | undefined;
  jwtRefreshSecret: string | undefined;
  /** Encrypts secrets stored in the database; the same on every API node. */
  dataKey: string | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  serveWeb: boolean;
  redisUrl: string | undefined;
  /** Message media in an S3-compatible bucket instead of DATA_DIR/public (several API nodes). */
  s3?: { bucket: string; endpoint?: string; region: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
  webDist: string;
  /** Login: attempts per IP per minute; failures per e-mail and IP per minute; failures per e-mail per hour. */
  rateLimit: {
    globalPerMinute: number;
    loginPerIpPerMinute: number;
    loginPerEmailPerMinute: number;
    loginPerAccountPerHour: number;
    /** `POST /api/messages/send`, per connection token. */
    messagesApiPerMinute: number;
  };
  bodyLimitBytes: number;
  /** Behind a reverse proxy: take the client IP from X-Forwarded-For (rate limits are per IP). */
  trustProxy: boolean;
  /** Every file uploaded in a multipart request (message attachments, greeting media), and how many per request. */
  uploadLimitBytes: number;
  uploadMaxFiles: number;
  meta: { appId: string | undefined; appSecret: string | undefined; verifyToken: string | undefined; graphApiUrl: string };
  /** Largest media file received from or sent to a channel. */
  mediaLimitBytes: number;
  /** First retry delay of a deleted company's media removal (doubling per attempt). */
  mediaDeleteRetrySeconds: number;
  /** Outbox: first retry after this delay, doubling per attempt, until the last attempt fails the message. */
  outbox: { retryBaseMs: number; maxAttempts: number };
  /** Outbound webhooks: the same doubling backoff, with its own base and number of attempts. */
  webhooks: { retryBaseMs: number; maxAttempts: number };
  /** Start the stored WhatsApp sessions at boot (off for tools that share the database). */
  startWhatsappSessions: boolean;
  /** Digits of the support WhatsApp number shown to admins (spec 1 §1), if any. */
  supportWhatsapp?: string;
  /** Subscription payments (docs/billing.md): the Efí PIX API when its credentials are set, else a static BR Code for `pix.key`. */
  billing: {
    efi?: { clientId: string; clientSecret: string; apiUrl: string; certPath?: string; certPassword?: string };
    /** Shared secret the payment webhook must carry (`?hmac=`), as Efí documents for webhooks without mutual TLS. */
    webhookSecret?: string;
    pix: { key?: string; merchantName: string; merchantCity: string };
  };
  /** AI prompts (docs/prompts.md): the OpenAI API (the SDK's default host when unset), its chat model, Azure TTS, and the bound on each remote call. */
  ai: { openAiBaseUrl?: string; model: string; azureSpeechUrl?: string; timeoutMs: number };
  /**
   * Queue integrations (docs/integrations.md): Dialogflow's API root, how long any remote may take to
   * answer, and the retries of a failed relay (first after `retryBaseMs`, doubling) before the queue takes over.
   */
  integrations: { dialogflowApiUrl: string; timeoutMs: number; retryBaseMs: number; maxAttempts: number };
}

/** Parses an environment (pure; throws a readable Error on bad values). */
export function parseConfig(env: NodeJS.ProcessEnv): Config {
  // Empty strings count as "unset", as they do in most .env files.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = result.data;
  return {
    port: e.PORT,
    webPort: e.WEB_PORT,
    apiUrl: (e.API_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    frontendUrl: (e.FRONTEND_URL ?? `http://localhost:${e.WEB_PORT}`).replace(/\/+$/, ''),
    dataDir: isAbsolute(e.DATA_DIR) ? e.DATA_DIR : resolve(REPO_ROOT, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    jwtSecret: e.JWT_SECRET,
    jwtRefreshSecret: e.JWT_REFRESH_SECRET,
    dataKey: e.DATA_ENCRYPTION_KEY,
    logLevel: e.LOG_LEVEL,
    serveWeb: e.SERVE_WEB,
    redisUrl: e.REDIS_URL,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    webDist: resolve(REPO_ROOT, 'apps/web/dist'),
    rateLimit: {
      globalPerMinute: e.RATE_LIMIT_MAX,
      loginPerIpPerMinute: e.LOGIN_MAX_PER_IP,
      loginPerEmailPerMinute: e.LOGIN_MAX_PER_EMAIL,
      loginPerAccountPerHour: e.LOGIN_MAX_PER_ACCOUNT,
      messagesApiPerMinute: e.MESSAGES_API_MAX_PER_MINUTE,
    },
    bodyLimitBytes: e.BODY_LIMIT_MB * 1024 * 1024,
    trustProxy: e.TRUST_PROXY,
    uploadLimitBytes: e.UPLOAD_LIMIT_MB * 1024 * 1024,
    uploadMaxFiles: e.UPLOAD_MAX_FILES,
    meta: {
      appId: e.FACEBOOK_APP_ID,
      appSecret: e.FACEBOOK_APP_SECRET,
      verifyToken: e.VERIFY_TOKEN,
      graphApiUrl: e.GRAPH_API_URL.replace(/\/+$/, ''),
    },
    mediaLimitBytes: e.MEDIA_LIMIT_MB * 1024 * 1024,
    mediaDeleteRetrySeconds: e.MEDIA_DELETE_RETRY_SECONDS,
    outbox: { retryBaseMs: e.OUTBOX_RETRY_BASE_MS, maxAttempts: e.OUTBOX_MAX_ATTEMPTS },
    webhooks: { retryBaseMs: e.WEBHOOK_RETRY_BASE_MS, maxAttempts: e.WEBHOOK_MAX_ATTEMPTS },
    startWhatsappSessions: e.WHATSAPP_SESSIONS,
    supportWhatsapp: e.SUPPORT_WHATSAPP?.replace(/\D/g, ''),
    billing: {
      efi:
        e.EFI_CLIENT_ID && e.EFI_CLIENT_SECRET
          ? {
              clientId: e.EFI_CLIENT_ID,
              clientSecret: e.EFI_CLIENT_SECRET,
              apiUrl: e.EFI_API_URL.replace(/\/+$/, ''),
              certPath: e.EFI_CERT_PATH,
              certPassword: e.EFI_CERT_PASSWORD,
            }
          : undefined,
      webhookSecret: e.EFI_WEBHOOK_SECRET,
      pix: { key: e.PIX_KEY, merchantName: e.PIX_MERCHANT_NAME, merchantCity: e.PIX_MERCHANT_CITY },
    },
    ai: {
      openAiBaseUrl: e.OPENAI_BASE_URL?.replace(/\/+$/, ''),
      model: e.OPENAI_MODEL,
      azureSpeechUrl: e.AZURE_SPEECH_URL?.replace(/\/+$/, ''),
      timeoutMs: e.AI_TIMEOUT_MS,
    },
    integrations: {
      dialogflowApiUrl: e.DIALOGFLOW_API_URL.replace(/\/+$/, ''),
      timeoutMs: e.INTEGRATION_TIMEOUT_MS,
      retryBaseMs: e.INTEGRATION_RETRY_BASE_MS,
      maxAttempts: e.INTEGRATION_MAX_ATTEMPTS,
    },
  };
}

/** Parses process.env once; a bad environment prints what is wrong and exits 1. */
export function loadConfig(): Config {
  try {
    return parseConfig(process.env);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}

/** Reads a JSON file, or undefined when it does not exist. */
export function readJsonFile<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
