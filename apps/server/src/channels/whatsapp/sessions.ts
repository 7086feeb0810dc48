import {
  Browsers,
  BufferJSON,
  DisconnectReason,
  downloadMediaMessage,
  generateMessageIDV2,
  makeCacheableSignalKeyStore,
  type AnyMessageContent,
  type BaileysEventMap,
  type Chat,
  type ConnectionState,
  type Contact,
  type WAMessage,
} from '@whiskeysockets/baileys';
import type { Channel } from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { companySettings, messages, whatsapps } from '../../db/schema/index.js';
import { ChannelSendError, type ChannelAdapter, type Connection, type OutgoingMessage, type PhoneEntry, type Recipient } from '../adapter.js';
import type { InboundEvent, InboundParty } from '../inbound-event.js';
import type { ChannelRuntime, DecodedInbound } from '../sink.js';
import { clearAuthState, useDatabaseAuthState } from './auth-state.js';
import { HistoryImport } from './history.js';
import { SessionLeases, type SessionCommand, type SessionOperation } from './leases.js';
import { declaredSize, hasMedia, isLidJid, parseCall, parseReaction, parseUpdate, parseUpsert } from './parse.js';
import type { WaSocket, WaSocketFactory } from './socket.js';

/** QR codes shown without a scan before the session gives up (status DISCONNECTED: "try again" / "new QR"). */
const MAX_QR_REFRESHES = 6;
/** Reconnect attempts of a paired session before it is marked TIMEOUT. */
const MAX_RECONNECTS = 8;
const MAX_BACKOFF_MS = 60_000;

interface Session {
  sock: WaSocket;
  /** Set when we close the socket ourselves: its close event must not trigger a reconnect. */
  closing: boolean;
  qrCount: number;
  /** A QR was shown in this run: the coming history sync is a fresh pairing's (import happens then). */
  pairing: boolean;
  /** Linking by pairing code for this phone number instead of a QR. */
  pairingNumber?: string;
  /** The socket reached `open` at least once. */
  opened: boolean;
  /** Events are handled one after the other, in the order Baileys emitted them (an edit never overtakes its message). */
  queue: Promise<void>;
  history?: HistoryImport;
}

export interface WhatsappSessionOptions {
  makeSocket: WaSocketFactory;
  /** Idle time after the last history chunk before an import is considered finished. */
  historyIdleMs?: number;
}

/**
 * Owns the Baileys sockets of this process: one per WhatsApp connection. Persists
 * and emits status, QR and retries; reconnects with backoff; maps socket events to
 * the inbound pipeline. Holds no business rules.
 */
export class WhatsappSessions implements ChannelAdapter {
  readonly channels: readonly Channel[] = ['whatsapp'];
  private readonly sessions = new Map<number, Session>();
  /**
   * Each connection's phone address book (phone JID → saved name) from history syncs and contact
   * events; kept across socket restarts, in memory only (WhatsApp sends it again on pairing).
   */
  private readonly phoneBooks = new Map<number, Map<string, string>>();
  /** Each connection's chats with a person (phone JID → chat name), from history syncs and chat events; kept like the address book. */
  private readonly chatLists = new Map<number, Map<string, string>>();
  private readonly reconnects = new Map<number, { attempts: number; timer?: NodeJS.Timeout }>();
  private readonly baileysLog = pino({ level: 'silent' });
  /** Several API nodes: each session runs on the node holding its lease. */
  readonly leases: SessionLeases;

  constructor(
    private readonly rt: () => ChannelRuntime,
    private readonly options: WhatsappSessionOptions,
  ) {
    this.leases = new SessionLeases(() => this.rt());
  }

  isRunning(whatsappId: number): boolean {
    return this.sessions.has(whatsappId);
  }

  /** The sessions with a socket on this node (open, opening or showing a QR). */
  runningIds(): number[] {
    return [...this.sessions.keys()];
  }

  /**
   * `pairingNumber`: link by pairing code (status PAIRING, the code in `qrcode`) instead of a QR.
   * `ifFree`: only when no other node runs it (boot, takeover, reconnects); else (an admin's request) this node takes it.
   */
  async start(connection: Connection, opts: { pairingNumber?: string; ifFree?: boolean } = {}): Promise<void> {
    if (!(await this.leases.claim(connection.id, !opts.ifFree))) return;
    await this.open(connection, false, opts.pairingNumber);
  }

  /** Another node took the session: its socket closes here, the stored status stays the new holder's. */
  async dropLocal(whatsappId: number): Promise<void> {
    this.cancelReconnect(whatsappId);
    await this.closeSocket(whatsappId);
  }

  /** A dead node's session: resumed here from the stored auth state (no new QR) when this node claims it first. */
  async takeOver(whatsappId: number): Promise<void> {
    const connection = await this.connection(whatsappId);
    if (connection?.channel !== 'whatsapp' || !(await this.leases.claimExpired(whatsappId))) return;
    await this.open(connection, false);
  }

  /** Resolves once every event received so far is stored (acknowledged: a crash no longer loses it). */
  async stored(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.queue));
  }

  /** Resolves once every event received so far has been stored and processed. */
  async settled(): Promise<void> {
    await this.stored();
    await this.rt().sink.drained();
  }

  /** `pairing` carries over the 515 restart that follows a scan: the history sync arrives on the new socket. */
  private async open(connection: Connection, pairing: boolean, pairingNumber?: string): Promise<void> {
    await this.closeSocket(connection.id);
    const rt = this.rt();
    const auth = await useDatabaseAuthState(rt.db, connection.id);
    const sock = this.options.makeSocket({
      auth: { creds: auth.state.creds, keys: makeCacheableSignalKeyStore(auth.state.keys, this.baileysLog) },
      logger: this.baileysLog,
      browser: Browsers.appropriate('Desktop'),
      // Full history is only delivered on pairing; the import filters it to the chosen window.
      syncFullHistory: connection.enableImportMessage,
      markOnlineOnConnect: false,
      getMessage: async (key) => (key.id ? this.storedMessage(connection.id, key.id) : undefined),
    });
    const session: Session = { sock, closing: false, qrCount: 0, pairing, pairingNumber, opened: false, queue: Promise.resolve() };
    this.sessions.set(connection.id, session);
    this.wire(connection.id, session, auth.saveCreds);
    if (!this.reconnects.has(connection.id)) await rt.sink.sessionChanged(connection.id, { status: 'OPENING', qrcode: '' });
  }

  /** Closes the socket; `logout` unlinks the device and forgets the session (a new QR is needed). */
  async stop(connection: Connection, opts: { logout: boolean }): Promise<void> {
    this.cancelReconnect(connection.id);
    const session = this.sessions.get(connection.id);
    if (session && opts.logout) {
      session.closing = true;
      await session.sock.logout().catch(() => undefined);
    }
    await this.closeSocket(connection.id);
    await this.leases.release(connection.id);
    if (opts.logout) await clearAuthState(this.rt().db, connection.id);
    await this.rt().sink.sessionChanged(connection.id, { status: 'DISCONNECTED', qrcode: '' });
  }

  /** Process shutdown: sockets close, sessions stay stored for the next boot; other nodes take them over meanwhile. */
  async closeAll(): Promise<void> {
    await this.leases.stop();
    for (const id of [...this.reconnects.keys()]) this.cancelReconnect(id);
    const running = this.sessions.size;
    for (const id of [...this.sessions.keys()]) await this.closeSocket(id);
    if (running) await this.leases.expireOwn().catch((err: unknown) => this.rt().log.warn({ err }, 'could not hand the session leases over'));
  }

  newMessageId(): string {
    return generateMessageIDV2();
  }

  async send(connection: Connection, message: OutgoingMessage): Promise<{ wid: string }> {
    const sock = this.connectedSocket(connection.id);
    const jid = jidOf(message.to);
    const content: AnyMessageContent = message.media
      ? await mediaContent(message)
      : message.contactCard
        ? { contacts: { displayName: message.contactCard.name, contacts: [{ vcard: message.contactCard.vcard }] } }
        : { text: message.body };
    const quoted = message.quotedWid ? await this.storedWaMessage(connection.id, message.quotedWid) : undefined;
    try {
      const sent = await sock.sendMessage(jid, content, { messageId: message.wid ?? undefined, quoted });
      const wid = sent?.key.id ?? message.wid;
      if (!wid) throw new ChannelSendError('WhatsApp gave no message id', false);
      return { wid };
    } catch (err) {
      if (err instanceof ChannelSendError) throw err;
      throw new ChannelSendError(`ERR_SENDING_WAPP_MSG: ${(err as Error).message}`, false);
    }
  }

  async react(connection: Connection, to: Recipient, targetWid: string, emoji: string): Promise<void> {
    if (await this.routedToOwner(connection.id, to, { op: 'react', targetWid, emoji })) return;
    const sock = this.connectedSocket(connection.id);
    const jid = jidOf(to);
    await sock.sendMessage(jid, { react: { text: emoji, key: { remoteJid: jid, id: targetWid, fromMe: await this.isOurs(connection.id, targetWid) } } });
  }

  async edit(connection: Connection, to: Recipient, targetWid: string, body: string): Promise<void> {
    if (await this.routedToOwner(connection.id, to, { op: 'edit', targetWid, body })) return;
    const jid = jidOf(to);
    await this.connectedSocket(connection.id).sendMessage(jid, { text: body, edit: { remoteJid: jid, id: targetWid, fromMe: true } });
  }

  async delete(connection: Connection, to: Recipient, targetWid: string): Promise<void> {
    if (await this.routedToOwner(connection.id, to, { op: 'delete', targetWid })) return;
    const jid = jidOf(to);
    await this.connectedSocket(connection.id).sendMessage(jid, { delete: { remoteJid: jid, id: targetWid, fromMe: true } });
  }

  async markRead(connection: Connection, to: Recipient, read: { wid: string; participant?: string | null }[]): Promise<void> {
    if (await this.routedToOwner(connection.id, to, { op: 'markRead', read })) return;
    const remoteJid = jidOf(to);
    await this.connectedSocket(connection.id).readMessages(read.map((r) => ({ remoteJid, id: r.wid, fromMe: false, participant: r.participant || undefined })));
  }

  /** A session running on another node: the operation is handed to that node (sends go through the outbox instead). */
  private async routedToOwner(whatsappId: number, to: Recipient, operation: SessionOperation): Promise<boolean> {
    if (this.sessions.has(whatsappId) || !(await this.leases.isHeldElsewhere(whatsappId))) return false;
    await this.leases.command({ ...operation, whatsappId, to });
    return true;
  }

  /** An operation another node handed over, run on this node's socket; dropped when the session has moved on meanwhile. */
  async runCommand(command: SessionCommand): Promise<void> {
    const connection = await this.connection(command.whatsappId);
    if (connection?.channel !== 'whatsapp' || !this.sessions.has(connection.id)) return;
    if (command.op === 'react') await this.react(connection, command.to, command.targetWid, command.emoji);
    else if (command.op === 'edit') await this.edit(connection, command.to, command.targetWid, command.body);
    else if (command.op === 'delete') await this.delete(connection, command.to, command.targetWid);
    else await this.markRead(connection, command.to, command.read);
  }

  async profilePicture(connection: Connection, to: Recipient): Promise<string | null> {
    const sock = this.sessions.get(connection.id)?.sock;
    if (!sock) return null;
    return (await sock.profilePictureUrl(jidOf(to), 'image').catch(() => undefined)) ?? null;
  }

  async checkNumbers(connection: Connection, numbers: string[]): Promise<Map<string, boolean>> {
    const found = await this.connectedSocket(connection.id).onWhatsApp(...numbers.map((n) => `${n}${PHONE_JID}`));
    return new Map((found ?? []).map((r) => [r.jid.split('@')[0] ?? '', r.exists]));
  }

  async phoneContacts(connection: Connection): Promise<PhoneEntry[]> {
    return entriesOf(this.phoneBooks.get(connection.id));
  }

  /** A chat without a name of its own takes the address book's name for that number. */
  async phoneChats(connection: Connection): Promise<PhoneEntry[]> {
    const book = this.phoneBooks.get(connection.id);
    return entriesOf(this.chatLists.get(connection.id)).map((e) => ({ ...e, name: e.name || book?.get(`${e.number}${PHONE_JID}`) || '' }));
  }

  /** Contacts Baileys hands over: those with a phone number (not only a LID) join the connection's address book. */
  private rememberContacts(whatsappId: number, list: Partial<Contact>[] | undefined): void {
    remember(this.phoneBooks, whatsappId, (list ?? []).map((c) => ({ jid: c.phoneNumber ?? c.id, name: c.name || c.notify || c.verifiedName })));
  }

  /** Chats with a person whose phone number is known (the chat's own JID, or the number behind its LID); groups are not people. */
  private rememberChats(whatsappId: number, list: Chat[] | undefined): void {
    remember(this.chatLists, whatsappId, (list ?? []).map((c) => ({ jid: c.id?.endsWith(PHONE_JID) ? c.id : c.pnJid, name: c.name || c.displayName })));
  }

  // ── socket events ──

  private wire(whatsappId: number, session: Session, saveCreds: () => Promise<void>): void {
    const { ev } = session.sock;
    const guard = <T extends keyof BaileysEventMap>(event: T, handler: (arg: BaileysEventMap[T]) => Promise<void>) =>
      ev.on(event, (arg) => {
        if (this.sessions.get(whatsappId) !== session) return;
        session.queue = session.queue
          .then(() => handler(arg))
          .catch((err: unknown) => this.rt().log.error({ err, whatsappId, event }, 'WhatsApp event handling failed'));
      });
    guard('creds.update', () => saveCreds());
    guard('connection.update', (update) => this.onConnectionUpdate(whatsappId, session, update));
    // Each event is stored raw before anything else (the sink), so a crash loses nothing; `decode` reads it back.
    guard('messages.upsert', async ({ messages: list }) => {
      for (const msg of list) if (parseUpsert(msg)) await this.store(whatsappId, 'upsert', msg);
    });
    guard('messages.update', async (updates) => {
      for (const u of updates) if (parseUpdate(u)) await this.store(whatsappId, 'update', u);
    });
    guard('messages.reaction', async (reactions) => {
      for (const r of reactions) if (parseReaction(r)) await this.store(whatsappId, 'reaction', r);
    });
    guard('call', async (calls) => {
      for (const call of calls) {
        if (!parseCall(call)) continue;
        await this.rejectCallIfRefused(whatsappId, session.sock, call.id, call.from);
        await this.store(whatsappId, 'call', call);
      }
    });
    guard('messaging-history.set', async (set) => {
      this.rememberContacts(whatsappId, set.contacts);
      this.rememberChats(whatsappId, set.chats);
      const connection = await this.connection(whatsappId);
      if (!connection?.enableImportMessage || !session.pairing) return;
      session.history ??= new HistoryImport(this.rt().sink, connection, this.options.historyIdleMs, this.rt().log);
      await session.history.addChunk(set, (m) => this.withLoaders(session.sock, m));
    });
    guard('contacts.upsert', async (list) => this.rememberContacts(whatsappId, list));
    guard('contacts.update', async (list) => this.rememberContacts(whatsappId, list));
    guard('chats.upsert', async (list) => this.rememberChats(whatsappId, list));
    guard('chats.delete', async (ids) => {
      for (const id of ids) this.chatLists.get(whatsappId)?.delete(id);
    });
    guard('messaging-history.status', async (status) => {
      if (status.status === 'complete') await session.history?.finish();
    });
  }

  private async onConnectionUpdate(whatsappId: number, session: Session, update: Partial<ConnectionState>): Promise<void> {
    const { sink } = this.rt();
    if (update.qr) {
      session.qrCount += 1;
      session.pairing = true;
      if (session.qrCount > MAX_QR_REFRESHES) {
        await this.closeSocket(whatsappId);
        await sink.sessionChanged(whatsappId, { status: 'DISCONNECTED', qrcode: '', retries: session.qrCount });
        return;
      }
      if (!session.pairingNumber) await sink.sessionChanged(whatsappId, { status: 'qrcode', qrcode: update.qr, retries: session.qrCount });
      // The socket is ready to link once it offers a QR: ask for the code once, it stays valid while the socket lives.
      else if (session.qrCount === 1) {
        const code = await session.sock.requestPairingCode(session.pairingNumber);
        await sink.sessionChanged(whatsappId, { status: 'PAIRING', qrcode: code, retries: session.qrCount });
      }
    }
    if (update.connection === 'open') {
      session.opened = true;
      this.cancelReconnect(whatsappId);
      const number = session.sock.user?.id ? session.sock.user.id.split('@')[0]!.split(':')[0]! : '';
      const connection = await this.connection(whatsappId);
      // The import's "preparing" marker: the import timestamp the UI counts 35 s from.
      const importing = session.pairing && connection?.enableImportMessage;
      await sink.sessionChanged(whatsappId, {
        status: 'CONNECTED',
        qrcode: '',
        retries: 0,
        number,
        ...(importing ? { statusImportMessages: String(Date.now()) } : {}),
      });
    }
    if (update.connection === 'close') await this.onClose(whatsappId, session, update);
  }

  private async onClose(whatsappId: number, session: Session, update: Partial<ConnectionState>): Promise<void> {
    const { db, sink, log } = this.rt();
    this.sessions.delete(whatsappId);
    if (session.closing) return;
    const error = update.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined;
    const code = error?.output?.statusCode;
    if (code === DisconnectReason.loggedOut) {
      // The phone removed this device: the stored keys are useless now.
      this.cancelReconnect(whatsappId);
      await this.leases.release(whatsappId);
      await clearAuthState(db, whatsappId);
      await sink.sessionChanged(whatsappId, { status: 'DISCONNECTED', qrcode: '', retries: 0 });
      return;
    }
    const connection = await this.connection(whatsappId);
    if (!connection) return;
    if (code === DisconnectReason.restartRequired) {
      // Normal right after a scan: the same credentials on a new socket.
      await this.open(connection, session.pairing);
      return;
    }
    const state = this.reconnects.get(whatsappId) ?? { attempts: 0 };
    state.attempts += 1;
    this.reconnects.set(whatsappId, state);
    const unpaired = !session.opened && session.qrCount > 0;
    if (state.attempts > MAX_RECONNECTS || unpaired) {
      // A QR run that closed without a scan, or a network that stays down: an admin decides.
      this.cancelReconnect(whatsappId);
      await this.leases.release(whatsappId);
      await sink.sessionChanged(whatsappId, { status: unpaired ? 'DISCONNECTED' : 'TIMEOUT', qrcode: '', retries: state.attempts });
      return;
    }
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (state.attempts - 1));
    await sink.sessionChanged(whatsappId, { status: 'OPENING', qrcode: '', retries: state.attempts });
    state.timer = setTimeout(() => {
      state.timer = undefined;
      void this.connection(whatsappId)
        .then((c) => (c ? this.start(c, { ifFree: true }) : undefined))
        .catch((err: unknown) => log.error({ err, whatsappId }, 'WhatsApp reconnect failed'));
    }, delay);
    state.timer.unref();
  }

  private async store(whatsappId: number, type: WaEventType, item: unknown): Promise<void> {
    const payload: StoredWaEvent = { whatsappId, type, item: JSON.parse(JSON.stringify(item, BufferJSON.replacer)) as unknown };
    await this.rt().sink.received('whatsapp', payload);
  }

  /** One chat's events share this key, so they are processed in the order Baileys emitted them. */
  orderKey(payload: unknown): string {
    const { whatsappId, item } = payload as StoredWaEvent;
    const it = item as { key?: { remoteJid?: string | null }; from?: string };
    return `wa:${whatsappId}:${it.key?.remoteJid ?? it.from ?? ''}`;
  }

  /** A stored raw event → the pipeline event, with the loaders of the live socket (or without one, after a restart). */
  async decode(payload: unknown): Promise<DecodedInbound[]> {
    const stored = payload as StoredWaEvent;
    const item = JSON.parse(JSON.stringify(stored.item), BufferJSON.reviver) as never;
    const event = PARSERS[stored.type](item);
    if (!event) return [];
    const connection = await this.connection(stored.whatsappId);
    if (!connection) return [];
    const sock = this.sessions.get(stored.whatsappId)?.sock;
    if (event.kind !== 'message') return [{ connection, event }];
    if (isLidJid(event.chat.remoteJid)) event.chat = await this.resolveLid(stored.whatsappId, event.chat);
    return [{ connection, event: this.withLoaders(sock, event) }];
  }

  /** Media download, LID → phone number, and the first-contact profile lookup need the socket. */
  private withLoaders<E extends InboundEvent>(sock: WaSocket | undefined, event: E): E {
    if (event.kind !== 'message') return event;
    const raw = event.raw as WAMessage;
    const limit = this.rt().mediaLimitBytes;
    const loadMedia =
      raw?.key && hasMedia(raw)
        ? async () => {
            if (declaredSize(raw) > limit) throw new Error('media larger than MEDIA_LIMIT_MB');
            const reuploadRequest = (m: WAMessage) => (sock ? sock.updateMediaMessage(m) : Promise.reject(new Error('no WhatsApp session')));
            const data = await downloadMediaMessage(raw, 'buffer', {}, { logger: this.baileysLog, reuploadRequest });
            return { data, mimetype: mimetypeOf(raw) };
          }
        : undefined;
    const chat = event.chat;
    const lookupProfile = sock
      ? async () => {
          const name = chat.isGroup ? (await sock.groupMetadata(chat.remoteJid).catch(() => undefined))?.subject : undefined;
          const pictureUrl = (await sock.profilePictureUrl(chat.remoteJid, 'image').catch(() => undefined)) ?? null;
          return { name, pictureUrl };
        }
      : undefined;
    return { ...event, loadMedia, lookupProfile };
  }

  /** A LID-only chat becomes its phone number when the socket knows the mapping, so one person stays one contact. */
  private async resolveLid(whatsappId: number, party: InboundParty): Promise<InboundParty> {
    const mapping = this.sessions.get(whatsappId)?.sock.signalRepository?.lidMapping;
    const pn = mapping ? await mapping.getPNForLID(party.remoteJid).catch(() => null) : null;
    if (!pn) return party;
    const number = pn.split('@')[0]!.split(':')[0]!;
    return { ...party, number, remoteJid: `${number}@s.whatsapp.net`, name: party.name === party.number ? number : party.name };
  }

  private async rejectCallIfRefused(whatsappId: number, sock: WaSocket, callId: string, from: string): Promise<void> {
    const connection = await this.connection(whatsappId);
    if (!connection) return;
    const [settings] = await this.rt()
      .db.select({ accept: companySettings.acceptCallWhatsapp })
      .from(companySettings)
      .where(eq(companySettings.companyId, connection.companyId));
    if (settings?.accept === 'disabled') await sock.rejectCall(callId, from).catch(() => undefined);
  }

  // ── helpers ──

  private connectedSocket(whatsappId: number): WaSocket {
    const sock = this.sessions.get(whatsappId)?.sock;
    if (!sock?.user) throw new ChannelSendError('ERR_WAPP_NOT_INITIALIZED', false);
    return sock;
  }

  private async closeSocket(whatsappId: number): Promise<void> {
    const session = this.sessions.get(whatsappId);
    if (!session) return;
    session.closing = true;
    this.sessions.delete(whatsappId);
    session.history?.cancel();
    try {
      session.sock.end(undefined);
    } catch {
      // Already closed.
    }
  }

  private cancelReconnect(whatsappId: number): void {
    const state = this.reconnects.get(whatsappId);
    if (state?.timer) clearTimeout(state.timer);
    this.reconnects.delete(whatsappId);
  }

  private async connection(whatsappId: number): Promise<Connection | undefined> {
    const [row] = await this.rt().db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId));
    return row;
  }

  private async storedWaMessage(whatsappId: number, wid: string): Promise<WAMessage | undefined> {
    const [row] = await this.rt()
      .db.select({ data: messages.data })
      .from(messages)
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)));
    const data = row?.data as WAMessage | null | undefined;
    return data?.key && data.message ? data : undefined;
  }

  /** Baileys asks for a message again when the recipient could not decrypt it (retry receipts). */
  private async storedMessage(whatsappId: number, wid: string) {
    return (await this.storedWaMessage(whatsappId, wid))?.message ?? undefined;
  }

  private async isOurs(whatsappId: number, wid: string): Promise<boolean> {
    const [row] = await this.rt()
      .db.select({ fromMe: messages.fromMe })
      .from(messages)
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)));
    return row?.fromMe ?? false;
  }
}

type WaEventType = 'upsert' | 'update' | 'reaction' | 'call';
/** A Baileys event as `inbound_events` keeps it (Buffers as BufferJSON). */
interface StoredWaEvent {
  whatsappId: number;
  type: WaEventType;
  item: unknown;
}
const PARSERS: Record<WaEventType, (item: never) => InboundEvent | undefined> = { upsert: parseUpsert, update: parseUpdate, reaction: parseReaction, call: parseCall };

const jidOf = (to: Recipient) => to.remoteJid || `${to.number}@${to.isGroup ? 'g.us' : 's.whatsapp.net'}`;

const PHONE_JID = '@s.whatsapp.net';

/** Adds people known by a phone JID to a connection's list; a later event without a name keeps the name already known. */
function remember(lists: Map<number, Map<string, string>>, whatsappId: number, people: { jid?: string | null; name?: string | null }[]): void {
  const known = lists.get(whatsappId) ?? new Map<string, string>();
  lists.set(whatsappId, known);
  for (const { jid, name } of people) if (jid?.endsWith(PHONE_JID)) known.set(jid, name || known.get(jid) || '');
}

const entriesOf = (list: Map<string, string> | undefined): PhoneEntry[] =>
  [...(list ?? [])].map(([jid, name]) => ({ number: jid.slice(0, -PHONE_JID.length), name }));

function mimetypeOf(msg: WAMessage): string {
  const m = msg.message;
  const inner = m?.documentWithCaptionMessage?.message ?? m?.ephemeralMessage?.message ?? m;
  return (
    inner?.imageMessage?.mimetype ??
    inner?.videoMessage?.mimetype ??
    inner?.audioMessage?.mimetype ??
    inner?.documentMessage?.mimetype ??
    inner?.stickerMessage?.mimetype ??
    'application/octet-stream'
  );
}

async function mediaContent(message: OutgoingMessage): Promise<AnyMessageContent> {
  const media = message.media!;
  const data = await media.read();
  const caption = message.body && message.body !== media.fileName ? message.body : undefined;
  switch (media.mediaType) {
    case 'image':
      return { image: data, caption, mimetype: media.mimetype };
    case 'video':
      return { video: data, caption, mimetype: media.mimetype };
    case 'audio':
      return { audio: data, mimetype: media.mimetype, ptt: media.mimetype.startsWith('audio/ogg') };
    case 'sticker':
      return { sticker: data };
    default:
      return { document: data, mimetype: media.mimetype, fileName: media.fileName, caption };
  }
}
