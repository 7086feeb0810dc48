import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createCompanyWithAdmin, createTestApp, login, type TestApp } from '../../test/helpers.js';
import { ACCESS_TOKEN_TTL_S } from '../modules/auth/tokens.js';

// `authenticate` remembers the access tokens whose signature it checked (a CPU cut per request): what it
// remembers must never outlive the token nor the session.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const me = (token: string) => t.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(token) });

async function session() {
  const own = await createCompanyWithAdmin(t.db);
  return login(t.app, own.email, own.password);
}

describe('authenticate with a token it already checked', () => {
  it('refuses it once expired (403 ERR_SESSION_EXPIRED)', async () => {
    const { token } = await session();
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (ACCESS_TOKEN_TTL_S + 1) * 1000);
    const res = await me(token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
  });

  it('refuses it after logout (the session is read on every request)', async () => {
    const { token } = await session();
    expect((await me(token)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/auth/logout', headers: bearer(token) })).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(403);
  });

  it('refuses the same payload with another signature', async () => {
    const { token } = await session();
    expect((await me(token)).statusCode).toBe(200);
    const [header, payload, signature] = token.split('.');
    const forged = `${header}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    expect((await me(forged)).statusCode).toBe(403);
  });
});
