import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * Several API nodes share their sockets through Redis (issue 19): every room emit is
 * published once and each node delivers it to its own sockets; `fetchSockets`,
 * `socketsJoin`/`leave` and `disconnectSockets` reach the sockets of every node.
 */
export interface Cluster {
  adapter: ReturnType<typeof createAdapter>;
  close(): Promise<void>;
}

export function redisCluster(url: string, log: FastifyBaseLogger): Cluster {
  // No retry limit per command: while Redis is away emits wait in the offline queue and /readyz names it.
  const pub = new Redis(url, { maxRetriesPerRequest: null });
  const sub = pub.duplicate();
  let lastError = '';
  for (const client of [pub, sub]) {
    client.on('error', (err: Error) => {
      // ioredis reports every reconnect attempt: log a changed reason once.
      if (err.message === lastError) return;
      lastError = err.message;
      log.warn({ err }, 'Redis connection error (sockets of other nodes miss events meanwhile)');
    });
  }
  quietUnawaited(pub);
  quietUnawaited(sub);
  return {
    adapter: createAdapter(pub, sub, { requestsTimeout: 3_000 }),
    async close() {
      // disconnect, not quit: quit waits for a Redis that may be gone.
      pub.disconnect();
      sub.disconnect();
    },
  };
}

/**
 * The adapter fires these commands without awaiting them: queued while Redis is away and
 * rejected when the client closes, they must not end the process as unhandled rejections
 * (the connection error is logged above).
 */
function quietUnawaited(client: Redis): void {
  const methods = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of ['publish', 'subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe']) {
    const original = methods[name]!.bind(client);
    methods[name] = (...args: unknown[]) => {
      const sent = original(...args);
      sent.catch(() => undefined);
      return sent;
    };
  }
}
