import { RedisAdapter, type RedisAdapterOptions } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Namespace, ServerOptions } from 'socket.io';

/**
 * Several API nodes share their sockets through Redis (issue 19): every room emit is
 * published once and each node delivers it to its own sockets; `fetchSockets`,
 * `socketsJoin`/`leave` and `disconnectSockets` reach the sockets of every node.
 */
export interface Cluster {
  adapter: ServerOptions['adapter'];
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
    // socket.io calls it with `new`, hence a function; a RedisAdapter at run time (OpenAdapter only narrows what this file reads of it).
    adapter: function (nsp: Namespace) {
      return new LocalFirstAdapter(nsp, pub, sub, { requestsTimeout: 3_000 }) as unknown as RedisAdapter;
    },
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

/** What the Redis adapter's broadcast options hold (socket.io-adapter's BroadcastOptions). */
interface Broadcast {
  rooms: Set<string>;
  except?: Set<string>;
  flags?: { local?: boolean };
}
type Packet = { nsp?: string; [key: string]: unknown };

/** What this file uses of the Redis adapter, its private receive hook included (the constructor binds `this.onmessage`, so a subclass may replace it). */
interface OpenAdapter {
  readonly nsp: Namespace;
  readonly uid: string;
  readonly parser: { encode(value: unknown): Buffer; decode(message: Buffer): unknown };
  readonly pubClient: Redis;
  /** Local sockets per room, and the rooms of each local socket. */
  readonly rooms: Map<string, Set<string>>;
  readonly sids: Map<string, Set<string>>;
  broadcast(packet: Packet, opts: Broadcast): void;
}
const OpenRedisAdapter = RedisAdapter as unknown as new (nsp: Namespace, pub: Redis, sub: Redis, opts: Partial<RedisAdapterOptions>) => OpenAdapter;

/** The in-memory adapter's broadcast: encodes the packet once and writes it to the matching local sockets. */
const broadcastLocally = (Object.getPrototypeOf(RedisAdapter.prototype) as OpenAdapter).broadcast;

/**
 * `@socket.io/redis-adapter` (same channels, same msgpack messages: other nodes and emitters
 * interoperate) without the work that reaches no socket. Every node subscribes to every
 * broadcast of the namespaces it holds, its own included: a node drops its own publications
 * from their first bytes instead of decoding them, and a node with no socket in a
 * broadcast's rooms neither encodes nor walks it (the publisher included, for its local part).
 */
class LocalFirstAdapter extends OpenRedisAdapter {
  /** The adapter's broadcast channel of this namespace (its rooms' channels start with it). */
  private readonly prefix: string;
  /** How a publication of this adapter starts: msgpack array of 3, then its uid as a fixstr. */
  private readonly ownHead: Buffer;

  constructor(nsp: Namespace, pub: Redis, sub: Redis, opts: Partial<RedisAdapterOptions>) {
    super(nsp, pub, sub, opts);
    this.prefix = `${opts.key ?? 'socket.io'}#${nsp.name}#`;
    const uid = Buffer.from(String(this.uid));
    this.ownHead = Buffer.concat([Buffer.from([0x93, 0xa0 | uid.length]), uid]);
  }

  /** Whether a socket of this node would receive it (an exception list may still leave none: then the walk finds none). */
  private reachesLocalSocket(opts: Broadcast): boolean {
    if (opts.rooms.size === 0) return this.sids.size > 0;
    for (const room of opts.rooms) if ((this.rooms.get(room)?.size ?? 0) > 0) return true;
    return false;
  }

  override broadcast(packet: Packet, opts: Broadcast): void {
    if (opts.flags?.local || this.reachesLocalSocket(opts)) return super.broadcast(packet, opts);
    // Publish only, as the adapter does (its channel per single room lets other nodes drop rooms they lack).
    packet.nsp = this.nsp.name;
    const message = this.parser.encode([this.uid, packet, { rooms: [...opts.rooms], except: [...new Set(opts.except)], flags: opts.flags }]);
    const channel = opts.rooms.size === 1 ? `${this.prefix}${[...opts.rooms][0]}#` : this.prefix;
    void this.pubClient.publish(channel, message);
  }

  /** Replaces the adapter's own receive hook (same checks, in the cheapest order). */
  protected onmessage(_pattern: unknown, channelName: Buffer | string, message: Buffer): void {
    const channel = channelName.toString();
    if (!channel.startsWith(this.prefix)) return;
    const room = channel.slice(this.prefix.length, -1);
    if (room !== '' && !this.rooms.has(room)) return;
    if (message.subarray(0, this.ownHead.length).equals(this.ownHead)) return;
    const [uid, packet, raw] = this.parser.decode(message) as [string, Packet | undefined, { rooms: string[]; except: string[]; flags?: Broadcast['flags'] }];
    if (uid === this.uid || !packet || (packet.nsp ?? '/') !== this.nsp.name) return;
    const opts: Broadcast = { rooms: new Set(raw.rooms), except: new Set(raw.except), flags: raw.flags };
    if (this.reachesLocalSocket(opts)) broadcastLocally.call(this, packet, opts);
  }
}
