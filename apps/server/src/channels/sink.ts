import type { ConnectionStatus, ImportMessagesEventPayload } from '@balcao/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import type { Connection } from './adapter.js';
import type { ImportMode, InboundEvent, InboundMessage } from './inbound-event.js';

/** Where a raw inbound event came from: picks the adapter that decodes it. */
export type InboundSource = 'meta' | 'whatsapp';

/** A channel event decoded for the pipeline, with the connection it belongs to. */
export interface DecodedInbound {
  connection: Connection;
  event: InboundEvent;
}

export interface SessionPatch {
  status?: ConnectionStatus;
  qrcode?: string;
  retries?: number;
  number?: string;
  statusImportMessages?: string | null;
}

/**
 * What adapters hand their traffic to (implemented by modules/conversations): the
 * adapters know channels, the sink knows tickets, messages and sockets.
 */
export interface ChannelSink {
  /**
   * Live traffic exactly as the channel delivered it. Resolves once the event is
   * durably stored; it is processed afterwards, in order per contact, and replayed
   * after a crash (the adapter's `decode` turns it into pipeline events).
   */
  received(source: InboundSource, payload: unknown): Promise<void>;
  /** Resolves once every event received so far has been processed. */
  drained(): Promise<void>;
  /** A history-import message: stored at once, without behaviours or per-message events. */
  imported(connection: Connection, message: InboundMessage, mode: ImportMode): Promise<void>;
  importProgress(companyId: number, payload: ImportMessagesEventPayload): void;
  /** The import is over: close its tickets or offer to, as the connection says. */
  importFinished(connection: Connection): Promise<void>;
  /** Session status, QR code, retries or number changed. */
  sessionChanged(whatsappId: number, patch: SessionPatch): Promise<void>;
}

/** The narrow dependencies of the adapters. */
export interface ChannelRuntime {
  /** Connections, Baileys auth state and stored channel payloads. */
  db: Db;
  log: FastifyBaseLogger;
  mediaLimitBytes: number;
  sink: ChannelSink;
}
