import type { Socket as TcpSocket } from 'node:net';
import type { Server } from 'socket.io';

/**
 * One write per socket per turn of the event loop. ws writes every WebSocket frame with its own
 * syscall (`writev`, the largest cost of an inbound message after the database, docs/BENCHMARKS.md),
 * and each message makes at least two events (its ticket's `update`, then its `create`), a lane
 * batch ten times that. engine.io writes the frames a socket owes in one `flush`; the TCP socket
 * is corked there and uncorked once the turn's work is done, so the turn's frames leave together.
 */
export function corkFlushesPerTurn(io: Server): void {
  const corked = new Set<TcpSocket>();
  io.engine.on('flush', (conn: { transport: { name: string; socket?: { _socket?: TcpSocket } } }) => {
    // ws keeps its TCP socket in `_socket`; polling transports answer whole HTTP responses and are left alone.
    const tcp = conn.transport.name === 'websocket' ? conn.transport.socket?._socket : undefined;
    if (!tcp || tcp.destroyed || corked.has(tcp)) return;
    corked.add(tcp);
    tcp.cork();
    if (corked.size === 1) setImmediate(() => uncorkAll(corked));
  });
}

function uncorkAll(corked: Set<TcpSocket>): void {
  for (const tcp of corked) tcp.uncork();
  corked.clear();
}
