import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Socket } from 'socket.io-client';
import {
  companyEvent,
  type AuthEventPayload,
  type AuthResponse,
  type LoginBody,
  type SessionUser,
} from '@balcao/contracts';
import i18n from '../i18n';
import { toast } from '../components/toast';
import { ApiError, request, setRefreshListener, setUnauthorizedHandler } from './http';
import { clearToken, getToken, setToken } from './storage';

interface SessionValue {
  user: SessionUser | null;
  /** True while the stored token is being turned back into a session on load. */
  loading: boolean;
  socket: Socket | null;
  login: (body: LoginBody) => Promise<SessionUser>;
  /** A login finished elsewhere (the two-factor code step) becomes the session. */
  startSession: (data: AuthResponse) => SessionUser;
  logout: () => Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

function isSessionUser(value: unknown): value is SessionUser {
  return typeof value === 'object' && value !== null && 'company' in value && 'profile' in value;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<SessionUser | null>(null);
  const [loading, setLoading] = useState<boolean>(() => getToken() !== null);
  const [socket, setSocket] = useState<Socket | null>(null);

  useEffect(() => {
    setUnauthorizedHandler(() => {
      setUser(null);
      queryClient.clear();
    });
    setRefreshListener(({ user: refreshed }) => {
      if (isSessionUser(refreshed)) setUser(refreshed);
    });
  }, [queryClient]);

  // On load, a stored token becomes a session again through the refresh cookie.
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || !getToken()) return;
    restored.current = true;
    request<AuthResponse>('/auth/refresh_token', { method: 'POST', auth: false })
      .then((data) => {
        setToken(data.token);
        setUser(data.user);
      })
      .catch((err: unknown) => {
        // The server said no: the session is over. A network failure keeps
        // the token so a later reload can still restore the session.
        if (err instanceof ApiError) clearToken();
        setUser(null);
      })
      .finally(() => setLoading(false));
  }, []);

  // The company socket lives as long as the session. socket.io-client is its own
  // chunk, fetched once a user is signed in: /login does not download it.
  const userId = user?.id;
  const companyId = user?.companyId;
  useEffect(() => {
    const token = getToken();
    if (userId === undefined || companyId === undefined || !token) return;
    let close: (() => void) | undefined;
    let ended = false;
    void import('./socket').then(({ connectCompanySocket, isForeignLogin }) => {
      if (ended) return;
      const connection = connectCompanySocket(companyId, userId, token);
      const s = connection.socket;
      close = connection.close;
      let firstConnectedAt: number | null = null;
      s.on('connect', () => {
        firstConnectedAt ??= Date.now();
      });
      s.on(companyEvent(companyId, 'auth'), (data: AuthEventPayload) => {
        if (!isForeignLogin(data?.user?.id, userId, firstConnectedAt, Date.now())) return;
        toast.error(i18n.t('session.otherComputer'));
        setTimeout(() => {
          window.localStorage.clear();
          window.location.reload();
        }, 1000);
      });
      setSocket(s);
    });
    return () => {
      ended = true;
      close?.();
      setSocket(null);
    };
  }, [userId, companyId]);

  const startSession = useCallback(
    (data: AuthResponse) => {
      setToken(data.token);
      queryClient.clear();
      setUser(data.user);
      return data.user;
    },
    [queryClient],
  );
  const login = useCallback(
    async (body: LoginBody) => startSession(await request<AuthResponse>('/auth/login', { method: 'POST', body, auth: false })),
    [startSession],
  );

  const logout = useCallback(async () => {
    try {
      await request('/auth/logout', { method: 'DELETE' });
    } catch {
      // The session ends locally either way.
    }
    clearToken();
    setUser(null);
    queryClient.clear();
  }, [queryClient]);

  const value = useMemo(() => ({ user, loading, socket, login, startSession, logout }), [user, loading, socket, login, startSession, logout]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession outside SessionProvider');
  return ctx;
}

/** The logged-in user; only for screens behind the private guard. */
export function useUser(): SessionUser {
  const { user } = useSession();
  if (!user) throw new Error('useUser without a session');
  return user;
}
