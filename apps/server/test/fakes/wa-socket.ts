import type { AnyMessageContent, BaileysEventMap, GroupMetadata, MiscMessageGenerationOptions, UserFacingSocketConfig, WAMessage, WAMessageKey } from '@whiskeysockets/baileys';
import { EventEmitter } from 'node:events';
import type { WaSocket, WaSocketFactory } from '../../src/channels/whatsapp/socket.js';

export interface SentMessage {
  jid: string;
  content: AnyMessageContent;
  options?: MiscMessageGenerationOptions;
}

/**
 * A Baileys socket without a network: tests emit recorded events on `ev` (the
 * fixtures under test/fixtures/baileys) and read what the app sent.
 */
export class FakeWaSocket implements WaSocket {
  private readonly emitter = new EventEmitter();
  readonly sent: SentMessage[] = [];
  /** Keys the app sent read receipts for. */
  readonly read: WAMessageKey[] = [];
  user?: { id: string; name?: string };
  ended = false;
  loggedOut = false;
  failSends = 0;
  /** Numbers (digits) `onWhatsApp` says have no WhatsApp; every other number has. */
  readonly notOnWhatsApp = new Set<string>();

  constructor(
    readonly config: UserFacingSocketConfig,
    private readonly settle: () => Promise<void>,
  ) {}

  ev = {
    on: <T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void) => {
      this.emitter.on(event, listener);
    },
    removeAllListeners: <T extends keyof BaileysEventMap>(event: T) => {
      this.emitter.removeAllListeners(event);
    },
  };

  /** Delivers an event as Baileys would, then waits until the app has handled it. */
  async emit<T extends keyof BaileysEventMap>(event: T, arg: BaileysEventMap[T]): Promise<void> {
    if (event === 'connection.update' && (arg as { connection?: string }).connection === 'open') this.user ??= { id: '5511912345678:7@s.whatsapp.net' };
    this.emitter.emit(event, arg);
    await this.settle();
  }

  async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined> {
    if (this.failSends > 0) {
      this.failSends -= 1;
      throw new Error('fake send failure');
    }
    this.sent.push({ jid, content, options });
    return { key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? `FAKE${this.sent.length}` } } as WAMessage;
  }

  async logout(): Promise<void> {
    this.loggedOut = true;
  }

  end(): void {
    this.ended = true;
  }

  async profilePictureUrl(): Promise<string | undefined> {
    return undefined;
  }

  async groupMetadata(jid: string): Promise<GroupMetadata> {
    return { id: jid, subject: 'Clientes VIP - Loja Exemplo', participants: [] } as unknown as GroupMetadata;
  }

  async rejectCall(): Promise<void> {}

  async onWhatsApp(...jids: string[]): Promise<{ jid: string; exists: boolean }[]> {
    return jids.map((jid) => ({ jid, exists: !this.notOnWhatsApp.has(jid.split('@')[0] ?? '') }));
  }

  /** Numbers a pairing code was asked for. */
  readonly pairingNumbers: string[] = [];

  async requestPairingCode(phoneNumber: string): Promise<string> {
    this.pairingNumbers.push(phoneNumber);
    return 'ABCD1234';
  }

  async readMessages(keys: WAMessageKey[]): Promise<void> {
    this.read.push(...keys);
  }

  async updateMediaMessage(message: WAMessage): Promise<WAMessage> {
    return message;
  }
}

/** A factory that records every socket it builds (the latest is the live one). */
export type FakeSocketFactory = WaSocketFactory & { sockets: FakeWaSocket[]; last(): FakeWaSocket; settleWith(fn: () => Promise<void>): void };

/** `settleWith`: how a test waits for the app to finish handling an event (WhatsappSessions.settled). */
export function fakeSocketFactory(): FakeSocketFactory {
  const sockets: FakeWaSocket[] = [];
  let settle = () => new Promise<void>((r) => setTimeout(r, 50));
  const build = (config: UserFacingSocketConfig) => {
    const sock = new FakeWaSocket(config, () => settle());
    sockets.push(sock);
    return sock;
  };
  const last = () => {
    const s = sockets.at(-1);
    if (!s) throw new Error('no socket was created');
    return s;
  };
  const settleWith = (fn: () => Promise<void>) => {
    settle = fn;
  };
  return Object.assign(build, { sockets, last, settleWith });
}
