import { isErrorCode, type ErrorCode } from '@balcao/contracts';
import { apiUrl } from '../config';
import { clearToken, getToken, setToken } from './storage';

/** The one error type of the web app's HTTP layer. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | null;
  readonly data: unknown;

  constructor(status: number, data: unknown) {
    const body = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
    const code = isErrorCode(body.error) ? body.error : null;
    const text =
      typeof body.message === 'string'
        ? body.message
        : typeof body.error === 'string'
          ? body.error
          : typeof data === 'string' && data
            ? data
            : `HTTP ${status}`;
    super(text);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.data = data;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  body?: unknown;
  /** Send the bearer token and apply the session rules (refresh on 403, logout on 401). Default true. */
  auth?: boolean;
  signal?: AbortSignal;
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => undefined;

/** The session layer registers what a 401 does (clear the user, go to /login). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

async function parseBody(res: Response): Promise<unknown> {
  if (res.status === 204) return null;
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function send(path: string, opts: RequestOptions, withToken: boolean): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) {
    body = opts.body;
  } else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const token = withToken ? getToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(`${apiUrl()}${path}`, {
    method: opts.method ?? 'GET',
    headers,
    body,
    credentials: 'include',
    signal: opts.signal,
  });
}

/** One refresh at a time: concurrent 403s wait for the same refresh. */
let refreshing: Promise<boolean> | null = null;

export interface RefreshResult {
  token: string;
  user: unknown;
}
type RefreshListener = (result: RefreshResult) => void;
let onRefreshed: RefreshListener = () => undefined;
export function setRefreshListener(listener: RefreshListener): void {
  onRefreshed = listener;
}

/** Exchanges the refresh cookie for a new token and user (the session listener stores the user). */
export async function refreshToken(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      const res = await send('/auth/refresh_token', { method: 'POST' }, false);
      if (!res.ok) return false;
      const data = (await parseBody(res)) as RefreshResult | null;
      if (!data || typeof data.token !== 'string') return false;
      setToken(data.token);
      onRefreshed(data);
      return true;
    } catch {
      return false;
    } finally {
      // Runs after the first await, so the promise is already stored: callers
      // waiting on it keep it, and the next 403 starts a fresh refresh.
      refreshing = null;
    }
  })();
  return refreshing;
}

/**
 * The app's single HTTP client. `auth: false` is the public client (no bearer,
 * no session handling) used before login; both send cookies.
 */
export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const auth = opts.auth ?? true;
  let res = await send(path, opts, auth);
  if (auth && res.status === 403) {
    const data = await parseBody(res.clone());
    const code = typeof data === 'object' && data !== null ? (data as { error?: unknown }).error : undefined;
    if (code === 'ERR_SESSION_EXPIRED') {
      if (await refreshToken()) {
        res = await send(path, opts, true);
      } else {
        clearToken();
        onUnauthorized();
        throw new ApiError(401, data);
      }
    }
  }
  const data = await parseBody(res);
  if (!res.ok) {
    if (auth && res.status === 401) {
      clearToken();
      onUnauthorized();
    }
    throw new ApiError(res.status, data);
  }
  return data as T;
}

/** For endpoints that later issues build: a 404 means "nothing yet", not a failure. */
export async function requestOr<T>(path: string, fallback: T, opts: RequestOptions = {}): Promise<T> {
  try {
    return await request<T>(path, opts);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return fallback;
    throw err;
  }
}
