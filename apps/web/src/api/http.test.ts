import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, request, requestOr, setUnauthorizedHandler } from './http';
import { getToken, setToken } from './storage';

type Handler = (url: string, init: RequestInit) => Response;

function mockFetch(handler: Handler) {
  const fn = vi.fn((input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(handler(String(input), init ?? {})));
  vi.stubGlobal('fetch', fn);
  return fn;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const authHeader = (init: RequestInit) => (init.headers as Record<string, string>).Authorization;

beforeEach(() => {
  window.__BALCAO__ = { apiUrl: 'http://api.test' };
  window.localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(() => undefined);
});

describe('request', () => {
  it('sends the stored bearer token with credentials', async () => {
    setToken('abc');
    const fetchFn = mockFetch(() => json(200, { ok: true }));
    await expect(request('/auth/me')).resolves.toEqual({ ok: true });
    const [url, init] = fetchFn.mock.calls[0]!;
    expect(url).toBe('http://api.test/auth/me');
    expect(init?.credentials).toBe('include');
    expect(authHeader(init!)).toBe('Bearer abc');
  });

  it('the public client sends no token', async () => {
    setToken('abc');
    const fetchFn = mockFetch(() => json(200, 'enabled'));
    await request('/public-settings/userCreation', { auth: false });
    expect(authHeader(fetchFn.mock.calls[0]![1]!)).toBeUndefined();
  });

  it('refreshes once on 403 ERR_SESSION_EXPIRED and retries with the new token', async () => {
    setToken('old');
    const seen: string[] = [];
    mockFetch((url, init) => {
      seen.push(`${url} ${authHeader(init) ?? '-'}`);
      if (url.endsWith('/auth/refresh_token')) return json(200, { token: 'new', user: {} });
      return authHeader(init) === 'Bearer new' ? json(200, [1]) : json(403, { error: 'ERR_SESSION_EXPIRED' });
    });
    await expect(request('/queue')).resolves.toEqual([1]);
    expect(seen).toEqual([
      'http://api.test/queue Bearer old',
      'http://api.test/auth/refresh_token -',
      'http://api.test/queue Bearer new',
    ]);
    expect(getToken()).toBe('new');
  });

  it('a 403 ERR_NO_PERMISSION is just an error', async () => {
    setToken('t');
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    const fetchFn = mockFetch(() => json(403, { error: 'ERR_NO_PERMISSION' }));
    const err = await request('/settings').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('ERR_NO_PERMISSION');
    expect(fetchFn).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(getToken()).toBe('t');
  });

  it('a 401 clears the token and ends the session', async () => {
    setToken('t');
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    mockFetch(() => json(401, { error: 'ERR_SESSION_EXPIRED' }));
    await expect(request('/auth/me')).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('a failed refresh ends the session', async () => {
    setToken('old');
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    mockFetch((url) => (url.endsWith('/auth/refresh_token') ? json(401, { error: 'ERR_SESSION_EXPIRED' }) : json(403, { error: 'ERR_SESSION_EXPIRED' })));
    await expect(request('/queue')).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('requestOr turns a 404 of a not-yet-built endpoint into the fallback', async () => {
    mockFetch(() => json(404, { error: 'ERR_NOT_FOUND' }));
    await expect(requestOr('/helps/list', [])).resolves.toEqual([]);
  });
});
