import { defineConfig } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PORT, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_API_URL, E2E_WEB_URL, WEB_PORT } from './e2e/env';
import { BILLING_ENV } from './e2e/billing-env';
import { GRAPH_ORIGIN, GRAPH_PORT, INBOX_API_PORT, INBOX_API_URL, INBOX_WEB_PORT, INBOX_WEB_URL, META_APP_ID, META_APP_SECRET } from './e2e/meta-env';

/**
 * E2E against the product started as `npm start` would (API + built web app),
 * on temporary ports with a fresh DATA_DIR. `npm run test:e2e` builds the web
 * app first.
 *
 * Two instances run: the main one without a Meta app (most specs), and one with a
 * Meta app whose Graph API is the bundled fake (the inbox spec plays the customer
 * through signed webhooks and reads the replies from the fake's `GET /__sent`).
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A fresh data folder per instance. The config is evaluated by the runner and again
 * by each worker: the runner creates the folder and hands it down through the
 * environment; it removes it on exit, after the server has stopped.
 */
function dataDirFor(envName: string): string {
  const existing = process.env[envName];
  if (existing) return existing;
  const dir = mkdtempSync(join(tmpdir(), 'balcao-e2e-'));
  process.env[envName] = dir;
  if (!process.env.BALCAO_E2E_KEEP_DATA) process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const chromium = {
  browserName: 'chromium' as const,
  viewport: { width: 1366, height: 800 },
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  },
};

/** The product as `npm start` runs it, on the given ports and data folder. */
function product(opts: { apiPort: number; webPort: number; apiUrl: string; webUrl: string; dataDir: string; env?: Record<string, string> }) {
  return {
    // node --import tsx: the signal reaches the server itself (npx would not forward it).
    command: 'node --import tsx apps/server/src/main.ts',
    cwd: repoRoot,
    url: opts.webUrl,
    timeout: 120_000,
    reuseExistingServer: false,
    // SIGTERM lets the server stop its embedded PostgreSQL (a SIGKILL would orphan it).
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(opts.apiPort),
      WEB_PORT: String(opts.webPort),
      API_URL: opts.apiUrl,
      FRONTEND_URL: opts.webUrl,
      DATA_DIR: opts.dataDir,
      ADMIN_EMAIL: E2E_ADMIN_EMAIL,
      ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      // The suite logs in many times from one address within a minute.
      LOGIN_MAX_PER_IP: '1000',
      LOGIN_MAX_PER_EMAIL: '1000',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
  };
}

export default defineConfig({
  testDir: './e2e',
  outputDir: '../../test-results/web-e2e',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: E2E_WEB_URL,
    locale: 'pt-BR',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'chromium', testIgnore: /inbox\.spec\.ts$/, use: chromium },
    // Two attendants' browsers and live events on a shared, busy machine: a little more patience.
    { name: 'inbox', testMatch: /inbox\.spec\.ts$/, use: { ...chromium, baseURL: INBOX_WEB_URL }, expect: { timeout: 20_000 } },
  ],
  webServer: [
    product({ apiPort: API_PORT, webPort: WEB_PORT, apiUrl: E2E_API_URL, webUrl: E2E_WEB_URL, dataDir: dataDirFor('BALCAO_E2E_DATA_DIR'), env: BILLING_ENV }),
    {
      command: `node --import tsx apps/server/tools/simulate.ts --fake-graph ${GRAPH_PORT}`,
      cwd: repoRoot,
      url: `${GRAPH_ORIGIN}/__sent`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    product({
      apiPort: INBOX_API_PORT,
      webPort: INBOX_WEB_PORT,
      apiUrl: INBOX_API_URL,
      webUrl: INBOX_WEB_URL,
      dataDir: dataDirFor('BALCAO_E2E_INBOX_DATA_DIR'),
      // Dialogflow's detectIntent goes to the fake the Graph stand-in also serves (e2e/dialogflow.ts).
      env: { FACEBOOK_APP_ID: META_APP_ID, FACEBOOK_APP_SECRET: META_APP_SECRET, GRAPH_API_URL: `${GRAPH_ORIGIN}/v21.0`, DIALOGFLOW_API_URL: `${GRAPH_ORIGIN}/dialogflow` },
    }),
  ],
});
