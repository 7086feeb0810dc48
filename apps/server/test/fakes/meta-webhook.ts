import type { FastifyInstance } from 'fastify';
import { signBody } from '../../src/channels/meta/signature.js';

export const APP_SECRET = 'test-app-secret-0123456789';
export const VERIFY_TOKEN = 'test-verify-token';

/** The env that turns the Meta channel on, pointing Graph calls at a local fake. */
export const metaEnv = (graphUrl: string) => ({
  FACEBOOK_APP_ID: '1234567890',
  FACEBOOK_APP_SECRET: APP_SECRET,
  VERIFY_TOKEN,
  GRAPH_API_URL: graphUrl,
});

/** POSTs a webhook body signed as Meta signs it (or with the given signature header). */
export function postWebhook(app: FastifyInstance, body: unknown, signature?: string | null) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== null) headers['x-hub-signature-256'] = signature ?? signBody(APP_SECRET, raw);
  return app.inject({ method: 'POST', url: '/webhook', headers, payload: raw });
}

/** A Messenger text event from `sender` to `pageId` with its own message id. */
export function messengerText(pageId: string, sender: string, mid: string, text: string, time = Date.now()) {
  return {
    object: 'page',
    entry: [{ id: pageId, time, messaging: [{ sender: { id: sender }, recipient: { id: pageId }, timestamp: time, message: { mid, text } }] }],
  };
}
