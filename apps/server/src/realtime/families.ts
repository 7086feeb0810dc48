import type { EventEmitter } from 'node:events';
import { decodeJwt } from 'jose';
import type { Namespace, Socket } from 'socket.io';
import type { Db } from '../db/client.js';
import { familyRevoked } from '../modules/auth/queries.js';
import { bearerToken } from '../modules/auth/tokens.js';
import type { Realtime } from './server.js';
import { ROOMS } from './server.js';

/** The refresh family named by the (already verified) access token a socket connected with. */
function familyOf(handshake: Socket['handshake']): string | undefined {
  const raw = typeof handshake.query.token === 'string' ? handshake.query.token : (handshake.auth as { token?: unknown }).token;
  const token = bearerToken(raw) ?? (typeof raw === 'string' ? raw : undefined);
  if (!token) return undefined;
  try {
    const { fam } = decodeJwt(token);
    return typeof fam === 'string' ? fam : undefined;
  } catch {
    return undefined;
  }
}

/** After a refresh token reuse: the sockets opened with that family's access tokens are closed. */
export async function disconnectFamily(realtime: Realtime, companyId: number, userId: number, family: string): Promise<void> {
  const sockets = await realtime.io.of(`/${companyId}`).in(ROOMS.user(userId)).fetchSockets();
  for (const socket of sockets) if (familyOf(socket.handshake) === family) socket.disconnect(true);
}

/**
 * Sockets accept an expired access token (they never renew it), so a token of a revoked
 * family is refused at connect too, after the company namespace's own authentication.
 */
export function refuseRevokedFamilies(realtime: Realtime, db: Db): void {
  // socket.io announces namespaces it creates (the company ones on first use) on its main namespace (an event its types omit).
  (realtime.io.sockets as unknown as EventEmitter).on('new_namespace', (nsp: Namespace) => {
    if (!/^\/\d+$/.test(nsp.name)) return;
    const companyId = Number(nsp.name.slice(1));
    nsp.use((socket, next) => {
      const family = familyOf(socket.handshake);
      if (!family) return next();
      familyRevoked(db, companyId, family)
        .then((revoked) => next(revoked ? new Error('session revoked') : undefined))
        .catch(next);
    });
  });
}
