import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  connectSocket,
  createCompanyWithAdmin,
  createTestApp,
  login,
  nextEvent,
  sleep,
  TEST_SECRETS,
  type LoggedIn,
  type TestApp,
} from '../../../test/helpers.js';
import { jsonOperations } from '../../../test/openapi.js';
import { createPlainUser, listen, openSocket } from '../../../test/roles.js';
import { REFRESH_REUSE_GRACE_MS } from './service.js';

/** Issue 9 points 5–6 and issue 10 points 8–9: refresh families, token form, authorization first, /auth/me in one query. */
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_IP: '1000', LOGIN_MAX_PER_EMAIL: '1000' });
  port = await listen(t);
});
afterAll(() => t.close());

const refreshWith = (cookie: string) => t.app.inject({ method: 'POST', url: '/auth/refresh_token', cookies: { jrt: cookie } });
const me = (authorization: string) => t.app.inject({ method: 'GET', url: '/auth/me', headers: { authorization } });

async function rotate(cookie: string): Promise<LoggedIn> {
  const res = await refreshWith(cookie);
  expect(res.statusCode).toBe(200);
  return { ...res.json(), refreshCookie: res.cookies.find((c) => c.name === 'jrt')!.value };
}

describe('refresh token reuse', () => {
  it('revokes the whole family: the newest jrt, its access token and its sockets; other sessions live on', async () => {
    const { email, password } = await createCompanyWithAdmin(t.db);
    const stolen = await login(t.app, email, password);
    const otherDevice = await login(t.app, email, password);
    const newest = await rotate(stolen.refreshCookie);
    const familySocket = await openSocket(port, newest);
    const otherSocket = await openSocket(port, otherDevice);
    const disconnected = nextEvent(familySocket, 'disconnect');

    await sleep(REFRESH_REUSE_GRACE_MS + 200);
    const reuse = await refreshWith(stolen.refreshCookie);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });

    expect((await refreshWith(newest.refreshCookie)).statusCode).toBe(401);
    expect((await me(`Bearer ${newest.token}`)).statusCode).toBe(403);
    await disconnected;
    // A new socket with that family's access token is refused too.
    const again = connectSocket(port, newest.user.companyId, { userId: String(newest.user.id), token: `Bearer ${newest.token}` });
    await Promise.any([nextEvent(again, 'disconnect'), nextEvent(again, 'connect_error')]);
    expect(again.connected).toBe(false);
    again.close();

    // The other login is another family: untouched.
    expect(otherSocket.connected).toBe(true);
    expect((await me(`Bearer ${otherDevice.token}`)).statusCode).toBe(200);
    expect((await refreshWith(otherDevice.refreshCookie)).statusCode).toBe(200);
    otherSocket.close();
  });
});

describe('access token form', () => {
  it('refuses a correctly signed access token without exp', async () => {
    const session = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const claims = { id: session.user.id, profile: 'admin', companyId: 1, tv: 0 };
    const key = new TextEncoder().encode(TEST_SECRETS.jwtSecret);
    const noExp = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().sign(key);
    const res = await me(`Bearer ${noExp}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    const users = await t.app.inject({ method: 'GET', url: '/users/list', headers: bearer(noExp) });
    expect(users.statusCode).toBe(403);
  });

  it('accepts only "Bearer <token>" (scheme in any case), never extra parts or another scheme', async () => {
    const { token } = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (const ok of [`Bearer ${token}`, `bearer ${token}`, `BEARER ${token}`]) expect((await me(ok)).statusCode, ok).toBe(200);
    for (const bad of [`Bearer ${token} extra`, `Bearer ${token} ${token}`, `Basic ${token}`, token, `Bearer${token}`, `Bearer ${token},x`, `Token ${token}`]) {
      const res = await me(bad);
      expect(res.statusCode, bad).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: '/users/list', headers: { authorization: bad } })).statusCode, bad).toBe(403);
    }
  });
});

describe('authorization before validation', () => {
  // Super-user routes with a body: a company admin sending a short body learns nothing about its fields.
  const SUPER_ROUTES = [
    ['POST', '/plans'],
    ['PUT', '/plans/1'],
    ['POST', '/helps'],
    ['PUT', '/helps/1'],
    ['POST', '/companies'],
    ['PUT', '/companies/1'],
    ['POST', '/version'],
  ] as const;

  it('a company admin gets 403 from a super-user route whatever the body; no token gets 401', async () => {
    const { email, password } = await createCompanyWithAdmin(t.db);
    const admin = await login(t.app, email, password);
    for (const [method, url] of SUPER_ROUTES) {
      const res = await t.app.inject({ method, url, headers: bearer(admin.token), payload: { x: 1 } });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json(), `${method} ${url}`).toEqual({ error: 'ERR_NO_PERMISSION' });
      const anonymous = await t.app.inject({ method, url, payload: { x: 1 } });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('authorization before validation, over the OpenAPI document', () => {
  it('a caller refused (403 ERR_NO_PERMISSION) with a plausible body is refused the same with a malformed one', async () => {
    const { company, email, password } = await createCompanyWithAdmin(t.db);
    const callers = { admin: await login(t.app, email, password), user: await createPlainUser(t, company.id) };
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    // Refused by what the body names, so only after it is read: another company's id (404/403 per row), or
    // another user's `userId` marking a chat read for them. The endpoint itself is open to these callers.
    const RESOURCE_LEVEL = ['PUT /companies/{id}/schedules', 'POST /chats/{id}/read'];
    const operations = jsonOperations(doc).filter(
      (op) => !op.path.startsWith('/auth/') && op.path !== '/webhook' && !RESOURCE_LEVEL.includes(`${op.method} ${op.path}`),
    );
    expect(operations.length).toBeGreaterThan(25);
    const mismatches: string[] = [];
    let refused = 0;
    for (const op of operations) {
      for (const [who, session] of Object.entries(callers)) {
        const send = (payload: unknown) =>
          t.app.inject({ method: op.method as 'POST', url: op.url, headers: { ...bearer(session.token), 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
        const plausible = await send(op.body);
        if (plausible.statusCode !== 403 || plausible.json().error !== 'ERR_NO_PERMISSION') continue;
        refused += 1;
        const malformed = await send('not an object');
        if (malformed.statusCode !== 403) mismatches.push(`${who} ${op.method} ${op.url} → ${malformed.statusCode} ${malformed.body}`);
      }
    }
    expect(refused).toBeGreaterThan(10);
    expect(mismatches).toEqual([]);
  });
});

describe('GET /auth/me', () => {
  it('answers from one database query', async () => {
    const { token } = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const query = vi.spyOn(t.pool, 'query');
    try {
      const res = await me(`Bearer ${token}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email: ADMIN_EMAIL, company: { id: 1, plan: { name: 'Plano 1' } } });
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
    }
  });
});
