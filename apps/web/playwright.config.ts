import { defineConfig } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PORT, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_API_URL, E2E_WEB_URL, WEB_PORT } from './e2e/env';

/**
 * E2E against the product started as `npm start` would (API + built web app),
 * on temporary ports with a fresh DATA_DIR. `npm run test:e2e` builds the web
 * app first.
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

// The config is evaluated by the runner and again by each worker: the runner
// creates the data folder and hands it down through the environment.
const created = !process.env.BALCAO_E2E_DATA_DIR;
const dataDir = process.env.BALCAO_E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'balcao-e2e-'));
process.env.BALCAO_E2E_DATA_DIR = dataDir;
// The process that created the folder removes it on exit, after the server has stopped.
if (created && !process.env.BALCAO_E2E_KEEP_DATA) {
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
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
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
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
      },
    },
  ],
  webServer: {
    // node --import tsx: the signal reaches the server itself (npx would not forward it).
    command: 'node --import tsx apps/server/src/main.ts',
    cwd: repoRoot,
    url: E2E_WEB_URL,
    timeout: 120_000,
    reuseExistingServer: false,
    // SIGTERM lets the server stop its embedded PostgreSQL (a SIGKILL would orphan it).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(API_PORT),
      WEB_PORT: String(WEB_PORT),
      API_URL: E2E_API_URL,
      FRONTEND_URL: E2E_WEB_URL,
      DATA_DIR: dataDir,
      ADMIN_EMAIL: E2E_ADMIN_EMAIL,
      ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      // The suite logs in many times from one address within a minute.
      LOGIN_MAX_PER_IP: '1000',
      LOGIN_MAX_PER_EMAIL: '1000',
      LOG_LEVEL: 'warn',
    },
  },
});
