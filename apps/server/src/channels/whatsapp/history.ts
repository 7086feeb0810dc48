import { IMPORT_STATUS_RUNNING } from '@balcao/contracts';
import type { BaileysEventMap, WAMessage } from '@whiskeysockets/baileys';
import type { FastifyBaseLogger } from 'fastify';
import type { Connection } from '../adapter.js';
import type { InboundMessage } from '../inbound-event.js';
import type { ChannelSink } from '../sink.js';
import { parseUpsert, toNumber } from './parse.js';

const DEFAULT_IDLE_MS = 60_000;
/** Progress events: at most one per this many messages (plus one per chunk). */
const PROGRESS_EVERY = 10;

/**
 * A history import (spec 1 §4 "Message import"): the chunks of `messaging-history.set`
 * that a fresh pairing delivers, filtered to the connection's date window (and to
 * non-group chats unless groups are asked for), written through the same pipeline as
 * live messages without behaviours or per-message events; progress on `importMessages-{companyId}`.
 */
export class HistoryImport {
  private processed = 0;
  private total = 0;
  private idleTimer?: NodeJS.Timeout;
  private finished = false;
  private readonly importedAt = new Date();

  constructor(
    private readonly sink: ChannelSink,
    private readonly connection: Connection,
    private readonly idleMs = DEFAULT_IDLE_MS,
    private readonly log?: FastifyBaseLogger,
  ) {}

  async addChunk(set: BaileysEventMap['messaging-history.set'], prepare: (e: InboundMessage) => InboundMessage): Promise<void> {
    if (this.finished) return;
    this.clearIdle();
    if (this.total === 0) await this.sink.sessionChanged(this.connection.id, { statusImportMessages: IMPORT_STATUS_RUNNING });
    const wanted = set.messages.filter((m) => this.inWindow(m)).sort((a, b) => toNumber(a.messageTimestamp) - toNumber(b.messageTimestamp));
    this.total += wanted.length;
    for (const msg of wanted) {
      const event = parseUpsert(msg);
      if (event?.kind === 'message') {
        await this.sink.imported(this.connection, prepare(event), { queueId: this.connection.queueIdImportMessages, importedAt: this.importedAt });
      }
      this.processed += 1;
      if (this.processed % PROGRESS_EVERY === 0) this.emitProgress(msg, set.progress);
    }
    this.emitProgress(wanted.at(-1), set.progress);
    if ((set.progress ?? 0) >= 100) await this.finish();
    else this.armIdle();
  }

  /** The sync is over: close the imported tickets now, or leave the "close imported tickets" button. */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.clearIdle();
    await this.sink.importFinished(this.connection);
  }

  cancel(): void {
    this.finished = true;
    this.clearIdle();
  }

  private inWindow(msg: WAMessage): boolean {
    const jid = msg.key.remoteJid ?? '';
    if (jid.endsWith('@g.us') && !this.connection.importOldMessagesGroups) return false;
    const at = toNumber(msg.messageTimestamp) * 1000;
    const from = this.connection.importOldMessages?.getTime() ?? 0;
    const to = this.connection.importRecentMessages?.getTime() ?? Date.now();
    return at >= from && at <= to;
  }

  private emitProgress(last: WAMessage | undefined, syncProgress: number | null | undefined): void {
    const at = last ? new Date(toNumber(last.messageTimestamp) * 1000) : new Date();
    const percent = this.total ? Math.round((this.processed / this.total) * 100) : (syncProgress ?? 0);
    this.sink.importProgress(this.connection.companyId, {
      action: 'update',
      whatsappId: this.connection.id,
      status: { this: this.processed, all: this.total, date: at.toISOString(), percent },
    });
  }

  private armIdle(): void {
    this.idleTimer = setTimeout(() => {
      this.finish().catch((err: unknown) => this.log?.error({ err }, 'finishing the history import failed'));
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
