import {
  ANNOUNCEMENT_EVENT,
  PUBLIC_NAMESPACE,
  maskContactNumber,
  companyEvent,
  importMessagesEvent,
  type CompanyEventName,
  type Announcement,
  type ChatEventPayload,
  type ChatUserEventPayload,
  type ImportMessagesEventPayload,
  type ListEventPayload,
  type SettingsEventPayload,
  type Schedule,
  type Tag,
} from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { ServerResponse, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { Server, type Namespace, type Socket } from 'socket.io';
import type { Db } from '../db/client.js';
import { userQueues, users } from '../db/schema/index.js';
import { asIs, hidesNumbers, type ContactMask } from '../modules/contacts/lgpd.js';
import { bearerToken, verifyAccessToken } from '../modules/auth/tokens.js';
import { findTicketRowByRef } from '../modules/tickets/queries.js';
import { canSeeTicket, loadViewer } from '../modules/tickets/visibility.js';
import { loadUser, setOnline } from '../modules/users/queries.js';
import type { Secrets } from '../secrets.js';
import type { EventPayload } from '../events/types.js';
import { BackgroundTasks } from '../http/background.js';
import { redisCluster, type Cluster } from './cluster.js';
import { ROOMS, roomsFor, type SocketRights } from './rooms.js';
import { Together, type Emit } from './together.js';

export { ROOMS };

export type { EventPayload };

export type SocketUser = SocketRights;

interface SocketData {
  user: SocketUser | null;
}
/**
 * An emit to every company namespace (platform-wide changes): each node only knows the
 * namespaces of its own sockets, so with several nodes each one delivers it locally.
 */
interface Fanout {
  room: string;
  /** A company event name (`company-{id}-…` in each namespace), or the event name itself when not `perCompany`. */
  name: string;
  perCompany: boolean;
  payload: unknown;
}
/** What decides who may see a ticket (`canSeeTicket`). */
type TicketScope = { id: number; userId: number | null; queueId: number | null; status: string };
interface ServerSideEvents {
  fanout: (f: Fanout) => void;
  /** A ticket changed: each node checks its own sockets in the ticket's room. */
  pruneTicket: (companyId: number, ticket: TicketScope) => void;
}
type AnyEvents = Record<string, (...args: unknown[]) => void>;
type AppSocket = Socket<AnyEvents, AnyEvents, ServerSideEvents, SocketData>;
type AppNamespace = Namespace<AnyEvents, AnyEvents, ServerSideEvents, SocketData>;

export interface RealtimeDeps {
  db: Db;
  secrets: Secrets;
  corsOrigin: string;
  log: FastifyBaseLogger;
  /** Several API nodes: sockets are shared through Redis (realtime/cluster.ts). */
  redisUrl?: string;
}

/** socket.io on the API server: one namespace per company (`/{companyId}`), typed emit helpers. */
export class Realtime {
  /** Socket handlers that read or write the database: shutdown waits for them before the pool ends. */
  private readonly tasks: BackgroundTasks;
  private closing = false;
  private readonly cluster?: Cluster;
  /** The ticket, message and contact events of the current publication, one write per socket at its end (realtime/together.ts). */
  private readonly together = new Together();
  readonly io: Server<AnyEvents, AnyEvents, ServerSideEvents, SocketData>;

  constructor(
    httpServer: HttpServer,
    private readonly deps: RealtimeDeps,
  ) {
    this.tasks = new BackgroundTasks(deps.log);
    this.cluster = deps.redisUrl ? redisCluster(deps.redisUrl, deps.log) : undefined;
    this.io = new Server(httpServer, { cors: { origin: deps.corsOrigin, credentials: true }, ...(this.cluster ? { adapter: this.cluster.adapter } : {}) });
    this.flushBeforeAnswers(httpServer);
    this.io.on('fanout', (f) => this.fanoutLocal(f));
    this.io.on('pruneTicket', (companyId, ticket) => this.tasks.run('prune ticket room', () => this.pruneTicketRoomNow(companyId, ticket)));
    // The default namespace carries nothing: clients must connect under their company.
    this.io.of('/').use((_socket, next) => next(new Error('connect to /{companyId}')));
    // Open to anyone, the login page included: it carries only changes of public settings (branding).
    this.io.of(PUBLIC_NAMESPACE);
    const companies = this.io.of(/^\/\d+$/);
    companies.use((socket, next) => {
      if (this.closing) return next(new Error('shutting down'));
      this.authenticate(socket)
        .catch((err: unknown) => {
          deps.log.warn({ err }, 'socket authentication failed');
          return null;
        })
        .then((user) => {
          socket.data.user = user;
          next();
        });
    });
    companies.on('connection', (socket) => this.tasks.run('socket connection', () => this.onConnection(socket)));
  }

  // ── emit helpers: call them after the database commit ──

  private nsp(companyId: number): AppNamespace {
    this.flush();
    return this.io.of(`/${companyId}`);
  }

  /** What waits for the end of the publication goes out now, in the order it was published. */
  private flush(): void {
    this.together.flush();
  }

  /**
   * An HTTP answer never overtakes the socket frames its request published: a client that hears
   * the answer has been sent its events (they otherwise wait for the end of the turn, which
   * comes after an answer written in the same turn).
   */
  private flushBeforeAnswers(httpServer: HttpServer): void {
    const flush = () => this.flush();
    function writeHead(this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>): ServerResponse {
      flush();
      return ServerResponse.prototype.writeHead.apply(this, args);
    }
    // Not engine.io's own answers: a long-polling socket's events are not an API request's.
    const engine = `${this.io.path()}/`;
    httpServer.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!req.url?.startsWith(engine)) res.writeHead = writeHead as ServerResponse['writeHead'];
    });
  }

  /**
   * Each of `emits` to the sockets of `rooms` that are in none of `except`, in order. `join` (the
   * events that carry contacts: tickets, messages, contacts) on this node alone: after what each
   * socket already waits for, all in one write per socket at the end of the publication. Anything
   * else flushes what waits first.
   */
  private broadcast(companyId: number, rooms: string[], except: string[], emits: Emit[], join = false): void {
    if (rooms.length === 0 || emits.length === 0) return;
    if (join && !this.cluster && this.together.add(this.io.of(`/${companyId}`), rooms, except, emits)) return;
    const nsp = this.nsp(companyId);
    for (const [name, payload] of emits) nsp.to(rooms).except(except).emit(name, payload);
  }

  emitToCompany<N extends CompanyEventName>(companyId: number, name: N, payload: EventPayload<N>): void {
    this.nsp(companyId).to(ROOMS.everyone).emit(companyEvent(companyId, name), payload);
  }

  emitToUser<N extends CompanyEventName>(companyId: number, userId: number, name: N, payload: EventPayload<N>): void {
    this.nsp(companyId).to(ROOMS.user(userId)).emit(companyEvent(companyId, name), payload);
  }

  emitToRooms<N extends CompanyEventName>(companyId: number, rooms: string[], name: N, payload: EventPayload<N>): void {
    this.broadcast(companyId, rooms, [], [[companyEvent(companyId, name), payload]]);
  }

  /** To the sockets of `rooms` that are in none of `except`. */
  emitToRoomsExcept<N extends CompanyEventName>(companyId: number, rooms: string[], except: string[], name: N, payload: EventPayload<N>): void {
    this.broadcast(companyId, rooms, except, [[companyEvent(companyId, name), payload]]);
  }

  /**
   * An event that carries contacts (LGPD, spec 2 §6): when the company hides numbers,
   * admins get `build(asIs)` and every other socket of `rooms` gets `build(mask)`; each
   * payload is built once. `rooms` must hold the admins (every ticket audience does, and `everyone`).
   * `hides`: the flag when the publisher already read it (else it is read here). These join the
   * publication: one write per socket for all of them (`broadcast`).
   */
  async emitMasked<N extends CompanyEventName>(
    companyId: number,
    rooms: string[],
    name: N,
    build: (mask: ContactMask) => EventPayload<N>,
    hides?: boolean,
  ): Promise<void> {
    const event = companyEvent(companyId, name);
    if (!(hides ?? (await hidesNumbers(this.deps.db, companyId)))) return this.broadcast(companyId, rooms, [], [[event, build(asIs)]], true);
    this.broadcast(companyId, [ROOMS.admins], [], [[event, build(asIs)]], true);
    this.broadcast(companyId, rooms, [ROOMS.admins], [[event, build(maskContactNumber)]], true);
  }

  /** Internal chat (`company-{id}-chat`, `-chat-user-{userId}`, `-chat-{chatId}`): to the given members' sockets only. */
  emitToMembers(companyId: number, userIds: number[], event: string, payload: ChatUserEventPayload | ChatEventPayload): void {
    if (userIds.length === 0) return;
    this.nsp(companyId).to(userIds.map(ROOMS.user)).emit(event, payload);
  }

  /** `importMessages-{companyId}` (not a `company-{id}-…` name): history import progress, to connection managers. */
  emitImportProgress(companyId: number, payload: ImportMessagesEventPayload): void {
    this.nsp(companyId).to(ROOMS.connections).emit(importMessagesEvent(companyId), payload);
  }

  /** Platform-wide changes (global settings): each company namespace with live sockets gets its own event name. */
  emitToAllCompanies<N extends CompanyEventName>(name: N, payload: EventPayload<N>): void {
    this.fanout({ room: ROOMS.everyone, name, perCompany: true, payload });
  }

  private fanout(f: Fanout): void {
    this.fanoutLocal(f);
    if (this.cluster) this.io.serverSideEmit('fanout', f);
  }

  private fanoutLocal(f: Fanout): void {
    for (const companyId of this.liveCompanies()) {
      this.nsp(companyId)
        .local.to(f.room)
        .emit(f.perCompany ? companyEvent(companyId, f.name as CompanyEventName) : f.name, f.payload);
    }
  }

  /** The companies whose namespace exists (has had sockets). */
  private liveCompanies(): number[] {
    return [...this.io._nsps.keys()].map((name) => Number(name.slice(1))).filter((id) => Number.isInteger(id) && id > 0);
  }

  /** Plans and companies: the super users' sockets, whatever company they belong to. */
  emitToSupers<N extends 'plan' | 'company'>(name: N, payload: EventPayload<N>): void {
    this.fanout({ room: ROOMS.supers, name, perCompany: true, payload });
  }

  /** `company{id}-tag`: not a `company-{id}-…` name, so addressed here rather than through `companyEvent`. */
  emitTag(companyId: number, payload: ListEventPayload<Tag>): void {
    this.nsp(companyId).to(ROOMS.everyone).emit(`company${companyId}-tag`, payload);
  }

  /** `company{id}-schedule` (spec 2 §7, 3 §7): no dash either; every user of the company sees the calendar. */
  emitSchedule(companyId: number, payload: ListEventPayload<Schedule>): void {
    this.nsp(companyId).to(ROOMS.everyone).emit(`company${companyId}-schedule`, payload);
  }

  /** `company-announcement` (spec 3 §7): one name for all, to every logged-in socket of every company. */
  emitAnnouncement(payload: ListEventPayload<Announcement>): void {
    this.fanout({ room: ROOMS.everyone, name: ANNOUNCEMENT_EVENT, perCompany: false, payload });
  }

  /** A public setting changed (branding, userCreation): every open page hears it, logged in or not. */
  emitPublicSetting(payload: SettingsEventPayload): void {
    this.flush();
    this.io.of(PUBLIC_NAMESPACE).emit('settings', payload);
  }

  /** Logout: the user's open sockets are closed by the server. */
  disconnectUser(companyId: number, userId: number): void {
    this.nsp(companyId).in(ROOMS.user(userId)).disconnectSockets(true);
  }

  /**
   * Shutdown in order: refuse new sockets, disconnect the open ones, wait for their
   * handlers (marking users offline) to finish, and only then let the pool end.
   */
  /** A deleted company: its open sockets are closed. */
  disconnectCompany(companyId: number): void {
    this.nsp(companyId).disconnectSockets(true);
  }

  async close(): Promise<void> {
    this.flush();
    this.closing = true;
    for (const nsp of this.io._nsps.values()) nsp.disconnectSockets(true);
    await this.tasks.drain();
    this.io.engine.close();
    await this.cluster?.close();
  }

  // ── connection lifecycle ──

  private async authenticate(socket: AppSocket): Promise<SocketUser | null> {
    const companyId = Number(socket.nsp.name.slice(1));
    const { query } = socket.handshake;
    const rawToken = typeof query.token === 'string' ? query.token : (socket.handshake.auth as { token?: unknown }).token;
    const token = bearerToken(rawToken) ?? (typeof rawToken === 'string' ? rawToken : undefined);
    if (!token) return null;
    const claims = await verifyAccessToken(this.deps.secrets, token, { allowExpired: true });
    if (!claims || claims.companyId !== companyId || String(claims.id) !== String(query.userId)) return null;

    return this.loadRights(companyId, claims.id, claims.tv);
  }

  /** What a user's sockets may receive, read fresh from the database; null when the user is gone or logged out. */
  private async loadRights(companyId: number, userId: number, tokenVersion?: number): Promise<SocketUser | null> {
    const [row] = await this.deps.db.select().from(users).where(eq(users.id, userId));
    if (!row || row.companyId !== companyId) return null;
    if (tokenVersion !== undefined && row.tokenVersion !== tokenVersion) return null;
    const queueRows = await this.deps.db.select({ id: userQueues.queueId }).from(userQueues).where(eq(userQueues.userId, row.id));
    const isAdmin = row.profile === 'admin' || row.super;
    return {
      id: row.id,
      companyId,
      isAdmin,
      queueIds: queueRows.map((q) => q.id),
      allTicket: row.allTicket === 'enabled',
      allHistoric: row.allHistoric === 'enabled',
      allUserChat: row.allUserChat === 'enabled',
      allowGroup: row.allowGroup,
      managesConnections: isAdmin || row.allowConnections === 'enabled',
      isSuper: row.super,
    };
  }

  /**
   * After a user's profile, flags or queues change, their open sockets hold
   * exactly the rooms they may now receive (sockets never renew themselves).
   */
  async refreshUserRooms(companyId: number, userId: number): Promise<void> {
    const sockets = await this.nsp(companyId).in(ROOMS.user(userId)).fetchSockets();
    if (sockets.length === 0) return;
    const user = await this.loadRights(companyId, userId);
    if (!user) return this.disconnectUser(companyId, userId);
    const rooms = roomsFor(user);
    for (const socket of sockets) {
      for (const room of socket.rooms) if (room !== socket.id && !rooms.includes(room)) socket.leave(room);
      socket.join(rooms);
      socket.data.user = user;
    }
  }

  private async onConnection(socket: AppSocket): Promise<void> {
    const user = socket.data.user;
    if (!user) {
      socket.disconnect(true);
      return;
    }
    await socket.join(roomsFor(user));

    // The rooms joined above already carry every ticket list and notification the user
    // may receive, whatever the status: these requests are accepted and grant nothing more.
    for (const event of ['joinNotification', 'leaveNotification', 'joinTickets', 'leaveTickets']) {
      socket.on(event, () => undefined);
    }
    socket.on('joinChatBox', (ref: unknown, ack?: unknown) => this.tasks.run('joinChatBox', () => this.joinChatBox(socket, user, ref, ack)));
    socket.on('joinChatBoxLeave', (ref: unknown, ack?: unknown) => this.tasks.run('joinChatBoxLeave', () => this.leaveChatBox(socket, user, ref, ack)));
    socket.on('userStatus', () => this.tasks.run('userStatus', () => this.markOnline(user, true)));
    socket.on('disconnect', () => this.tasks.run('socket disconnect', () => this.onDisconnect(socket, user)));
    await this.markOnline(user, true);
  }

  /**
   * `joinChatBox(ticketId or uuid)`: the ticket's room, only for a ticket of this
   * company the user may open (`canSeeTicket`, on fresh data). A refusal joins
   * nothing and emits nothing; a client passing an ack callback gets `{ ok: true }`
   * or `{ error: code }`.
   */
  private async joinChatBox(socket: AppSocket, user: SocketUser, ref: unknown, ack: unknown): Promise<void> {
    const reply = typeof ack === 'function' ? (ack as (answer: unknown) => void) : () => undefined;
    try {
      const ticket = await findTicketRowByRef(this.deps.db, user.companyId, ref);
      if (!ticket) return reply({ error: 'ERR_NO_TICKET_FOUND' });
      if (!canSeeTicket(await loadViewer(this.deps.db, user), ticket)) return reply({ error: 'ERR_NO_PERMISSION' });
      await socket.join(ROOMS.ticket(ticket.id));
      reply({ ok: true });
    } catch (err) {
      this.deps.log.warn({ err }, 'joinChatBox refused');
      reply({ error: 'ERR_NO_PERMISSION' });
    }
  }

  private async leaveChatBox(socket: AppSocket, user: SocketUser, ref: unknown, ack: unknown): Promise<void> {
    const reply = typeof ack === 'function' ? (ack as (answer: unknown) => void) : () => undefined;
    try {
      const ticket = await findTicketRowByRef(this.deps.db, user.companyId, ref);
      if (ticket) await socket.leave(ROOMS.ticket(ticket.id));
      reply({ ok: true });
    } catch (err) {
      this.deps.log.warn({ err }, 'joinChatBoxLeave failed');
      reply({ error: 'ERR_INTERNAL' });
    }
  }

  /**
   * Sockets in a ticket's room whose user may no longer see the ticket leave it. Each node
   * checks its own sockets: the others are told, with no answer to wait for (a cluster-wide
   * `fetchSockets` costs a Redis round trip, a request and an answer from every node per ticket event).
   */
  pruneTicketRoom(companyId: number, ticket: TicketScope): void {
    const scope = { id: ticket.id, userId: ticket.userId, queueId: ticket.queueId, status: ticket.status };
    this.tasks.run('prune ticket room', () => this.pruneTicketRoomNow(companyId, scope));
    if (this.cluster) this.io.serverSideEmit('pruneTicket', companyId, scope);
  }

  private async pruneTicketRoomNow(companyId: number, ticket: TicketScope): Promise<void> {
    try {
      const room = ROOMS.ticket(ticket.id);
      // Not `of()`: a node without sockets of the company must not open its namespace (and its Redis subscription).
      const nsp = this.io._nsps.get(`/${companyId}`);
      if (!nsp?.adapter.rooms.has(room)) return;
      const sockets = await nsp.local.in(room).fetchSockets();
      const allowed = new Map<number, boolean>();
      for (const socket of sockets) {
        const userId = socket.data.user?.id;
        if (userId === undefined) continue;
        if (!allowed.has(userId)) {
          const viewer = await loadViewer(this.deps.db, { id: userId, companyId }).catch(() => undefined);
          allowed.set(userId, viewer !== undefined && canSeeTicket(viewer, ticket));
        }
        if (!allowed.get(userId)) socket.leave(room);
      }
    } catch (err) {
      this.deps.log.warn({ err }, 'could not prune a ticket room');
    }
  }

  private async onDisconnect(socket: AppSocket, user: SocketUser): Promise<void> {
    const remaining = await socket.nsp.in(ROOMS.user(user.id)).fetchSockets();
    if (remaining.length === 0) await this.markOnline(user, false);
  }

  private async markOnline(user: SocketUser, online: boolean): Promise<void> {
    try {
      if (!(await setOnline(this.deps.db, user.id, online))) return;
      const full = await loadUser(this.deps.db, user.id);
      if (full) this.emitToCompany(user.companyId, 'user', { action: 'update', user: full });
    } catch (err) {
      this.deps.log.warn({ err }, 'could not update online status');
    }
  }
}
