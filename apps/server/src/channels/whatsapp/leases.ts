import { and, eq, lt, ne, sql, type SQL } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import type { Recipient } from '../adapter.js';
import { whatsappSessionLeases } from '../../db/schema/index.js';

/** A lease not renewed for this long belongs to a dead node: another one takes the session over. */
export const LEASE_TTL_MS = 15_000;
/** Renewal and takeover scan period: a dead node's sessions move within TTL + one period (≤ 20 s). */
export const LEASE_HEARTBEAT_MS = 5_000;
/** pg NOTIFY channel: "send this outbox row", to the node that owns its session. */
const ROUTE_CHANNEL = 'balcao_outbox_route';
/** pg NOTIFY channel: a reaction, edit, delete or read receipt (JSON `SessionCommand`) for the node that owns the session. */
const COMMAND_CHANNEL = 'balcao_session_command';

/** A session operation other than a send, made on a node that does not run the session. */
export type SessionOperation =
  | { op: 'react'; targetWid: string; emoji: string }
  | { op: 'edit'; targetWid: string; body: string }
  | { op: 'delete'; targetWid: string }
  | { op: 'markRead'; read: { wid: string; participant?: string | null }[] };
export type SessionCommand = SessionOperation & { whatsappId: number; to: Recipient };

export interface LeaseHandlers {
  /** The lease of a session running here was taken by another node (or deleted): close it here, nothing else. */
  lost(whatsappId: number): Promise<void>;
  /** An expired lease (its node died): try to run the session here. */
  orphaned(whatsappId: number): Promise<void>;
  /** Another node queued an outbox row for a session running here. */
  routed(messageId: number): Promise<void>;
  /** Another node made a reaction, edit, delete or read receipt on a session running here. */
  command(command: SessionCommand): Promise<void>;
}

/**
 * Which API node runs each WhatsApp session: a row per session with a heartbeat
 * (docs/operations.md, "Session leases"). No row: nobody should run it (stopped, logged out).
 * An expired row: its node died, the first node to claim it resumes it from the stored auth state.
 */
export class SessionLeases {
  readonly nodeId = randomUUID();
  private timer?: NodeJS.Timeout;
  private listener?: pg.Client;
  private handlers?: LeaseHandlers;

  constructor(private readonly deps: () => { db: Db; log: FastifyBaseLogger }) {}

  /**
   * Takes the session for this node: when nobody holds it, its holder's lease expired, or
   * `force` (an admin's explicit start or stop on this node: the old holder closes its socket at its next heartbeat).
   */
  async claim(whatsappId: number, force: boolean): Promise<boolean> {
    const expiresAt = sql`now() + make_interval(secs => ${LEASE_TTL_MS / 1000})`;
    const free = sql`${whatsappSessionLeases.nodeId} = excluded.node_id OR ${whatsappSessionLeases.expiresAt} < now()`;
    const rows = await this.deps()
      .db.insert(whatsappSessionLeases)
      .values({ whatsappId, nodeId: this.nodeId, expiresAt })
      .onConflictDoUpdate({ target: whatsappSessionLeases.whatsappId, set: { nodeId: this.nodeId, expiresAt }, ...(force ? {} : { setWhere: free }) })
      .returning({ id: whatsappSessionLeases.whatsappId });
    return rows.length > 0;
  }

  /** Takes over the session of a dead node: only while its lease is expired (no lease: nobody should run it). */
  async claimExpired(whatsappId: number): Promise<boolean> {
    const rows = await this.deps()
      .db.update(whatsappSessionLeases)
      .set({ nodeId: this.nodeId, expiresAt: sql`now() + make_interval(secs => ${LEASE_TTL_MS / 1000})` })
      .where(and(eq(whatsappSessionLeases.whatsappId, whatsappId), lt(whatsappSessionLeases.expiresAt, sql`now()`)))
      .returning({ id: whatsappSessionLeases.whatsappId });
    return rows.length > 0;
  }

  /** Nobody should run the session any more (stopped, logged out, given up). */
  async release(whatsappId: number): Promise<void> {
    await this.deps().db.delete(whatsappSessionLeases).where(eq(whatsappSessionLeases.whatsappId, whatsappId));
  }

  /** Shutdown: this node's sessions are to be taken over at once by the others (and resumed at this node's next boot). */
  async expireOwn(): Promise<void> {
    await this.deps().db.update(whatsappSessionLeases).set({ expiresAt: sql`now()` }).where(eq(whatsappSessionLeases.nodeId, this.nodeId));
  }

  /**
   * Whether another node holds the lease of the session in `connectionColumn` (live or not yet
   * taken over): that session's outbox rows are that node's to send. Rows of other channels have no lease.
   */
  heldElsewhere(connectionColumn: SQL): SQL {
    return sql`EXISTS (SELECT 1 FROM whatsapp_session_leases l WHERE l.whatsapp_id = ${connectionColumn} AND l.node_id <> ${this.nodeId})`;
  }

  /** Asks the node holding the session to send an outbox row now (it also finds it at its next sweep). */
  async route(messageId: number): Promise<void> {
    await this.deps().db.execute(sql`SELECT pg_notify(${ROUTE_CHANNEL}, ${String(messageId)})`);
  }

  /** Whether another node holds the session's lease (its socket is there, or is about to be taken over). */
  async isHeldElsewhere(whatsappId: number): Promise<boolean> {
    const rows = await this.deps()
      .db.select({ id: whatsappSessionLeases.whatsappId })
      .from(whatsappSessionLeases)
      .where(and(eq(whatsappSessionLeases.whatsappId, whatsappId), ne(whatsappSessionLeases.nodeId, this.nodeId)));
    return rows.length > 0;
  }

  /**
   * Hands a session operation to the node holding the session. Fire and forget, like WhatsApp
   * itself: the owner logs a failure; a NOTIFY payload holds up to 8000 bytes, so long read lists are split.
   */
  async command(command: SessionCommand): Promise<void> {
    const parts = command.op === 'markRead' ? chunks(command.read, 50).map((read) => ({ ...command, read })) : [command];
    for (const part of parts) await this.deps().db.execute(sql`SELECT pg_notify(${COMMAND_CHANNEL}, ${JSON.stringify(part)})`);
  }

  /** Heartbeat, takeover scan and routed sends (main and the multi-node test servers start it). */
  async start(connection: pg.ClientConfig, handlers: LeaseHandlers, running: () => number[]): Promise<void> {
    this.handlers = handlers;
    this.listener = new pg.Client(connection);
    this.listener.on('error', (err) => this.deps().log.warn({ err }, 'session lease listener lost its connection'));
    await this.listener.connect();
    this.listener.on('notification', (n) => {
      if (n.channel === COMMAND_CHANNEL) {
        void handlers.command(JSON.parse(n.payload ?? '{}') as SessionCommand).catch((err: unknown) => this.deps().log.warn({ err }, 'routed session command failed'));
        return;
      }
      const id = Number(n.payload);
      if (Number.isInteger(id)) void handlers.routed(id).catch((err: unknown) => this.deps().log.warn({ err }, 'routed send failed'));
    });
    await this.listener.query(`LISTEN ${ROUTE_CHANNEL}`);
    await this.listener.query(`LISTEN ${COMMAND_CHANNEL}`);
    const tick = () => {
      this.beat(running()).catch((err: unknown) => this.deps().log.warn({ err }, 'session lease heartbeat failed'));
    };
    this.timer = setInterval(tick, LEASE_HEARTBEAT_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.listener?.end().catch(() => undefined);
    this.listener = undefined;
  }

  private async beat(running: number[]): Promise<void> {
    const { db } = this.deps();
    const handlers = this.handlers!;
    const held = await db
      .update(whatsappSessionLeases)
      .set({ expiresAt: sql`now() + make_interval(secs => ${LEASE_TTL_MS / 1000})` })
      .where(eq(whatsappSessionLeases.nodeId, this.nodeId))
      .returning({ id: whatsappSessionLeases.whatsappId });
    const mine = new Set(held.map((r) => r.id));
    for (const id of running) if (!mine.has(id)) await handlers.lost(id);
    const orphans = await db
      .select({ id: whatsappSessionLeases.whatsappId })
      .from(whatsappSessionLeases)
      .where(and(lt(whatsappSessionLeases.expiresAt, sql`now()`), ne(whatsappSessionLeases.nodeId, this.nodeId)));
    for (const { id } of orphans) await handlers.orphaned(id);
  }
}

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
