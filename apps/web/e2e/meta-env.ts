import { API_PORT, WEB_PORT } from './env';

/**
 * The inbox spec runs against a second product instance that has a Meta app
 * configured and talks to the bundled fake Graph API (see playwright.config.ts);
 * the other specs keep a product without one. Ports move with
 * E2E_INBOX_API_PORT / E2E_INBOX_WEB_PORT (default: one above the main ones) and
 * E2E_GRAPH_PORT.
 */
export const INBOX_API_PORT = Number(process.env.E2E_INBOX_API_PORT ?? API_PORT + 1);
export const INBOX_WEB_PORT = Number(process.env.E2E_INBOX_WEB_PORT ?? WEB_PORT + 1);
export const GRAPH_PORT = Number(process.env.E2E_GRAPH_PORT ?? 18099);
export const INBOX_API_URL = `http://localhost:${INBOX_API_PORT}`;
export const INBOX_WEB_URL = `http://localhost:${INBOX_WEB_PORT}`;
export const GRAPH_ORIGIN = `http://127.0.0.1:${GRAPH_PORT}`;
/** The app secret the customer signs webhooks with (Meta's X-Hub-Signature-256). */
export const META_APP_SECRET = 'e2e-meta-app-secret';
export const META_APP_ID = '1234567890';
