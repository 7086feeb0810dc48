import type { Namespace } from 'socket.io';

/**
 * Events to one audience in ONE write per socket, and the writes of a whole publication joined:
 * a lane batch announces its messages one after the other, each a `ticket` update and an
 * `appMessage` create, and socket.io would write each event to each socket with its own `writev`
 * (20 agents × 2 events × every message). Here each event is encoded once, the WebSocket frames
 * of one call laid back to back in one buffer (a piece), and a websocket's pieces wait — per socket,
 * in the order they were added — until `flush`: then each gets them all as ONE engine.io
 * pre-encoded frame (what socket.io's own adapter hands engine.io for one event). On the wire,
 * the same frames in the same order. `Realtime` flushes before every other emit, before an HTTP
 * answer and at the end of the publication (process.nextTick, after the turn's microtasks), so
 * nothing waits for a later turn. A socket on another transport (long-polling, a compressed
 * websocket) gets the events one by one at once, as before.
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
  connected: boolean;
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

/** The events of one `add`, encoded once for all its sockets. */
interface Piece {
  id: number;
  packets: object[];
  /** socket.io's encoding of each event (engine.io's packet data, and the one-by-one path). */
  strings: string[];
  /** This piece's frames alone, as engine.io's packet options. */
  options: { preEncoded: true; wsPreEncodedFrame: [Buffer] };
}

const oneByOne = { preEncoded: true };

function writeOneByOne(socket: EngineSide, piece: Piece): void {
  for (const s of piece.strings) socket.client.writeToEngine([s], oneByOne);
}

/** A socket's pieces as one pre-encoded frame; sockets that got the same pieces share the buffer. */
function joined(pieces: Piece[], shared: Map<string, Piece['options']>): Piece['options'] {
  if (pieces.length === 1) return pieces[0]!.options;
  const key = pieces.map((p) => p.id).join(',');
  let options = shared.get(key);
  if (!options) {
    options = { preEncoded: true, wsPreEncodedFrame: [Buffer.concat(pieces.map((p) => p.options.wsPreEncodedFrame[0]))] };
    shared.set(key, options);
  }
  return options;
}

/** The pieces waiting for their sockets' one write. */
export class Together {
  private pending = new Map<EngineSide, Piece[]>();
  private pieces = 0;
  private scheduled = false;
  private readonly flushLater = () => {
    this.scheduled = false;
    this.flush();
  };

  /**
   * `emits` to every local socket of `rooms` but `except`, after what each already waits for.
   * False when an event carries binary parts (the caller flushes and emits them normally).
   */
  add(nsp: Namespace, rooms: string[], except: string[], emits: Emit[]): boolean {
    const packets = emits.map(([name, payload]) => ({ type: EVENT, data: [name, payload], nsp: nsp.name }));
    const encoded = packets.map((p) => nsp.server.encoder.encode(p) as unknown[]);
    if (encoded.some((e) => e.length !== 1 || typeof e[0] !== 'string')) return false;
    const strings = encoded.map((e) => e[0] as string);
    // "4": engine.io's message packet type, in front of each socket.io packet.
    const frames = Buffer.concat(strings.map((s) => textFrame(Buffer.from(`4${s}`))));
    const piece: Piece = { id: ++this.pieces, packets, strings, options: { preEncoded: true, wsPreEncodedFrame: [frames] } };
    for (const id of audience(nsp, rooms, except)) {
      const socket = nsp.sockets.get(id) as unknown as EngineSide | undefined;
      if (!socket) continue;
      if (!takesFrames(socket)) {
        // Never pending (only websockets are), so nothing of this socket's can be overtaken.
        for (const packet of packets) socket.notifyOutgoingListeners?.(packet);
        writeOneByOne(socket, piece);
        continue;
      }
      const waiting = this.pending.get(socket);
      if (waiting) waiting.push(piece);
      else this.pending.set(socket, [piece]);
    }
    if (!this.scheduled && this.pending.size > 0) {
      this.scheduled = true;
      process.nextTick(this.flushLater);
    }
    return true;
  }

  /** Each waiting socket gets its pieces, in order, in one write. */
  flush(): void {
    if (this.pending.size === 0) return;
    const pending = this.pending;
    this.pending = new Map();
    const shared = new Map<string, Piece['options']>();
    for (const [socket, pieces] of pending) {
      if (!socket.connected) continue;
      for (const piece of pieces) for (const packet of piece.packets) socket.notifyOutgoingListeners?.(packet);
      // engine.io sends the pre-encoded frame instead of the packet's data, which is then only the first event's.
      if (takesFrames(socket)) socket.client.writeToEngine([pieces[0]!.strings[0]!], joined(pieces, shared));
      else for (const piece of pieces) writeOneByOne(socket, piece);
    }
  }
}
