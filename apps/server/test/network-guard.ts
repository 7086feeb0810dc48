import net from 'node:net';

/**
 * Tests may only talk to loopback (embedded PostgreSQL, the app under test, local
 * fakes). Any other TCP connection — Graph API, WhatsApp, a CDN — fails at once.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '::ffff:127.0.0.1']);
const originalConnect = net.Socket.prototype.connect;

function targetHost(args: unknown[]): string | undefined {
  const [first, second] = args;
  if (Array.isArray(first)) return targetHost(first);
  if (first && typeof first === 'object') {
    const o = first as { host?: string; path?: string };
    return o.path ? undefined : (o.host ?? 'localhost');
  }
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) return typeof second === 'string' ? second : 'localhost';
  return undefined; // a Unix socket path
}

net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
  const host = targetHost(args);
  if (host !== undefined && !LOOPBACK.has(host)) {
    process.nextTick(() => this.destroy(new Error(`test network guard: connection to ${host} refused (loopback only)`)));
    return this;
  }
  return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof originalConnect;
