import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { messengerText, metaEnv, postWebhook, VERIFY_TOKEN } from '../../test/fakes/meta-webhook.js';

/**
 * The two scopes of http/app.ts: every browser/API route answers with security headers and
 * CORS, the channel webhook (server-to-server, at our busiest) runs none of those plugins.
 */
let t: TestApp;
let origin: string;

beforeAll(async () => {
  // No Graph call is made: the webhook below is for a Page no connection serves.
  t = await createTestApp(metaEnv('http://127.0.0.1:9'));
  origin = t.app.ctx.config.frontendUrl;
});
afterAll(() => t.close());

const BROWSER_HEADERS = ['x-content-type-options', 'x-frame-options', 'strict-transport-security', 'cross-origin-resource-policy', 'access-control-allow-origin'];

function expectBrowserHeaders(res: LightMyRequestResponse, what: string) {
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['x-frame-options'], what).toBe('SAMEORIGIN');
  expect(res.headers['cross-origin-resource-policy'], what).toBe('cross-origin');
  expect(res.headers['access-control-allow-origin'], what).toBe(origin);
  expect(res.headers['access-control-allow-credentials'], what).toBe('true');
}

function expectNoBrowserHeaders(res: LightMyRequestResponse, what: string) {
  for (const name of BROWSER_HEADERS) expect(res.headers[name], `${what}: ${name}`).toBeUndefined();
  expect(res.headers['content-encoding'], what).toBeUndefined();
  expect(res.headers['set-cookie'], what).toBeUndefined();
  expect(Object.keys(res.headers).filter((h) => h.startsWith('x-ratelimit')), what).toEqual([]);
}

describe('browser API scope', () => {
  it('every documented route but the webhook answers with security headers and CORS, whatever its status', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    const checked: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (path === '/webhook') continue;
      const url = path.replace(/\{[^}]+\}/g, '1');
      for (const method of Object.keys(operations)) {
        const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url, headers: { origin } });
        expectBrowserHeaders(res, `${method} ${path} → ${res.statusCode}`);
        checked.push(`${method} ${path}`);
      }
    }
    expect(checked.length).toBeGreaterThan(100);
    expect(checked).toEqual(expect.arrayContaining(['get /healthz', 'post /auth/login', 'get /tickets', 'post /api/messages/send']));
  });

  it('undocumented answers too: unknown URLs (404 shape kept), /health, /public files, /docs, a CORS preflight', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/nope', headers: { origin } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'ERR_NOT_FOUND' });
    expectBrowserHeaders(missing, '404');
    expectBrowserHeaders(await t.app.inject({ method: 'GET', url: '/health', headers: { origin } }), '/health');
    const builtin = await t.app.inject({ method: 'GET', url: '/public/app/nope.png', headers: { origin } });
    expectBrowserHeaders(builtin, '/public/app/');
    const docs = await t.app.inject({ method: 'GET', url: '/docs/json', headers: { origin } });
    expect(docs.statusCode).toBe(200);
    expectBrowserHeaders(docs, '/docs/json');

    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/tickets',
      headers: { origin, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
  });

  it('keeps the rate limit and compression of the API', async () => {
    const big = await t.app.inject({ method: 'GET', url: '/docs/json', headers: { origin, 'accept-encoding': 'br' } });
    expect(big.headers['content-encoding']).toBe('br');
    const health = await t.app.inject({ method: 'GET', url: '/auth/me', headers: { origin } });
    expect(health.headers['x-ratelimit-limit']).toBeDefined();
  });
});

/** The hooks fastify will run for a top-level route, from its route tree: `(phase) ["name()", …]` lines. */
function hooksOf(method: 'GET' | 'POST', path: string): string[] {
  const lines = t.app.printRoutes({ includeHooks: true, commonPrefix: false, method }).split('\n');
  const at = lines.findIndex((line) => /^[├└]── /.test(line) && line.slice(4).startsWith(`${path} (`));
  expect(at, `${method} ${path} in the route tree`).toBeGreaterThanOrEqual(0);
  const hooks: string[] = [];
  for (const line of lines.slice(at + 1)) {
    const hook = /^[│ ] {3}• (.*)$/.exec(line);
    if (!hook) break;
    hooks.push(hook[1]!);
  }
  return hooks;
}

describe('webhook scope', () => {
  it('the webhook routes run no hook of the browser API (a browser route, for contrast, runs them all)', () => {
    expect(hooksOf('POST', '/webhook')).toEqual([]);
    expect(hooksOf('GET', '/webhook')).toEqual(['(preValidation) ["cleanRequestStrings()"]']);
    const login = hooksOf('POST', '/auth/login').join('\n');
    for (const hook of ['helmetConfigureReply', 'helmetApplyHeaders', 'handleCors', 'fastifyCookieHandler', 'cleanRequestStrings', 'fastifyCookieOnSendHandler']) {
      expect(login).toContain(`${hook}()`);
    }
  });

  it('POST /webhook runs none of the browser plugins: no security headers, CORS, compression, cookie or rate limit', async () => {
    const body = JSON.stringify(messengerText('999000999', 'psid-scope', 'm.scope.1', 'hello'));
    const res = await postWebhook(t.app, body);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('EVENT_RECEIVED');
    expectNoBrowserHeaders(res, 'signed');
    const browserLike = await t.app.inject({
      method: 'POST',
      url: '/webhook',
      headers: { origin, 'accept-encoding': 'br, gzip', 'content-type': 'application/json' },
      payload: body,
    });
    expect(browserLike.statusCode).toBe(401);
    expect(browserLike.json()).toEqual({ error: 'ERR_INVALID_SIGNATURE' });
    expectNoBrowserHeaders(browserLike, 'unsigned, with an Origin');
  });

  it('GET /webhook (the subscription handshake) neither', async () => {
    const ok = await t.app.inject({
      method: 'GET',
      url: `/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=42`,
      headers: { origin, 'accept-encoding': 'br' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('42');
    expectNoBrowserHeaders(ok, 'verified');
    const refused = await t.app.inject({ method: 'GET', url: '/webhook?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=42', headers: { origin } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_INVALID_SIGNATURE' });
    expectNoBrowserHeaders(refused, 'refused');
  });

  it('the handshake echoes a cleaned challenge, as before the split', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=4%002` });
    expect(res.body).toBe('42');
  });
});
