import type { Namespace } from 'socket.io';

/**
 * Several events to one audience in ONE write per socket (a message's `ticket` update and its
 * `appMessage` create). socket.io already encodes a room broadcast once, but writes each event to
 * each socket with its own `writev`: 1,000 sockets × 2 events were 2,000 syscalls per message, the
 * bulk of the fan-out's CPU. Here each event is encoded once, their WebSocket frames are laid back
 * to back in one buffer, and each websocket gets that buffer as engine.io's pre-encoded frame (what
 * socket.io's own adapter hands it for one event): on the wire, the same frames in the same order.
 * A socket on another transport (long-polling) gets the events one by one, as before.
 *
 * Local sockets only: with several nodes (realtime/cluster.ts) the caller emits normally.
 */
export type Emit = [name: string, payload: unknown];

/** socket.io-parser's EVENT packet type. */
const EVENT = 2;

/** RFC 6455 §5.2: an unmasked, final text frame carrying `data`. */
export function textFrame(data: Buffer): Buffer {
  const n = data.length;
  const head = n < 126 ? Buffer.alloc(2) : n < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x81;
  if (n < 126) head[1] = n;
  else if (n < 65536) {
    head[1] = 126;
    head.writeUInt16BE(n, 2);
  } else {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([head, data]);
}

/** What socket.io and engine.io do not type: the write path its adapter uses for a broadcast. */
interface EngineSide {
  client: { writeToEngine(encoded: string[], opts: object): void };
  conn: { transport: { name: string; perMessageDeflate?: unknown; socket?: { _sender?: { sendFrame?: unknown } } } };
  notifyOutgoingListeners?: (packet: object) => void;
}

/** engine.io's own test (`_canSendPreEncodedFrame`): a websocket without compression takes a pre-encoded frame. */
function takesFrames(socket: EngineSide): boolean {
  const { transport } = socket.conn;
  return transport.name === 'websocket' && !transport.perMessageDeflate && typeof transport.socket?._sender?.sendFrame === 'function';
}

/** The ids of the sockets in any of `rooms` and in none of `except` (socket.io's own rule for `to(rooms).except(except)`). */
function audience(nsp: Namespace, rooms: string[], except: string[]): Set<string> {
  const { rooms: members } = nsp.adapter;
  const out = new Set<string>();
  for (const room of rooms) for (const id of members.get(room) ?? []) out.add(id);
  for (const room of except) for (const id of members.get(room) ?? []) out.delete(id);
  return out;
}

/** Writes `emits` to every local socket of `rooms` but `except`, each socket once. False when an event carries binary parts (the caller emits them normally). */
export function broadcastTogether(nsp: Namespace, rooms: string[], except: string[], emits: Emit[]): boolean {
  const packets = emits.map(([name, payload]) => ({ type: EVENT, data: [name, payload], nsp: nsp.name }));
  const encoded = packets.map((p) => nsp.server.encoder.encode(p) as unknown[]);
  if (encoded.some((e) => e.length !== 1 || typeof e[0] !== 'string')) return false;
  const strings = encoded.map((e) => e[0] as string);
  // "4": engine.io's message packet type, in front of each socket.io packet.
  const frames = Buffer.concat(strings.map((s) => textFrame(Buffer.from(`4${s}`))));
  const together = { preEncoded: true, wsPreEncodedFrame: [frames] };
  const oneByOne = strings.map(() => ({ preEncoded: true }));
  for (const id of audience(nsp, rooms, except)) {
    const socket = nsp.sockets.get(id) as unknown as EngineSide | undefined;
    if (!socket) continue;
    for (const packet of packets) socket.notifyOutgoingListeners?.(packet);
    // engine.io sends the pre-encoded frame instead of the packet's data, which is then only the first event's.
    if (takesFrames(socket)) socket.client.writeToEngine([strings[0]!], together);
    else strings.forEach((s, i) => socket.client.writeToEngine([s], oneByOne[i]!));
  }
  return true;
}
