import { io, type Socket } from 'socket.io-client';
import { SOCKET_RECONNECT_DELAY_MS, USER_STATUS_INTERVAL_MS } from '@balcao/contracts';
import { apiUrl } from '../config';

/**
 * The company socket (spec 1 §7): namespace /{companyId}, userId and bearer
 * token in the query, unlimited reconnects 1 s apart, userStatus every 5 min.
 */
export interface CompanySocket {
  socket: Socket;
  close: () => void;
}

export function connectCompanySocket(companyId: number, userId: number, token: string): CompanySocket {
  const socket = io(`${apiUrl()}/${companyId}`, {
    query: { userId: String(userId), token: `Bearer ${token}` },
    reconnectionDelay: SOCKET_RECONNECT_DELAY_MS,
    reconnectionAttempts: Infinity,
    withCredentials: true,
    // Its own connection: a Manager shared with the public namespace's socket
    // would have been opened without this query, and the server refuses that.
    forceNew: true,
  });
  const timer = setInterval(() => {
    if (socket.connected) socket.emit('userStatus');
  }, USER_STATUS_INTERVAL_MS);
  socket.on('connect', () => socket.emit('userStatus'));
  return {
    socket,
    close: () => {
      clearInterval(timer);
      socket.disconnect();
    },
  };
}

/**
 * A login emits `company-{id}-auth` to every socket of that user, and this
 * session's own socket may connect just in time to receive the event of its
 * own login. The payload carries only the user id (no token issue time), so
 * an event arriving within this window after the socket's first connection is
 * taken as our own login and ignored; a socket that was already connected
 * when another login happened is older than the window and logs out.
 */
export const OWN_LOGIN_GRACE_MS = 2000;

export function isForeignLogin(eventUserId: number | undefined, myUserId: number, firstConnectedAt: number | null, now: number): boolean {
  if (eventUserId !== myUserId) return false;
  if (firstConnectedAt === null) return false;
  return now - firstConnectedAt >= OWN_LOGIN_GRACE_MS;
}
