import type { MediaType } from '@balcao/contracts';
import { and, desc, eq, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contacts, queues, schedules, tickets, users, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { mimetypeOfStored } from '../../storage/media.js';
import { queueOutgoingBatch, type BatchOutgoing } from '../conversations/outbound-batch.js';
import { fillVariables } from '../messages/variables.js';
import { announceSchedules } from './announce.js';
import type { ScheduleRow } from './presenter.js';
import { nextOccurrence } from './recurrence.js';
import { ticketsFor, type Carrier } from './tickets.js';

/*
 * The schedule engine (issue 14). Each occurrence is a pg-boss job due at its `sendAt`
 * (a singleton per schedule and time, so saving twice queues it once); a minute sweep
 * catches whatever has no job (rows written by other means, a lost job). Either way a
 * send starts with a row claim, PENDENTE → AGENDADA in one UPDATE, so two workers, two
 * processes or a restart never send one occurrence twice. A process that dies between
 * the claim and the end of the send leaves the row AGENDADA: when its lease lapses the
 * sweep marks it ERRO instead of sending again — a customer never gets a message twice;
 * the attendant sees it failed and can re-arm it.
 */

export const SCHEDULE_SEND_JOB = 'schedule-send';
export const SCHEDULE_SWEEP_JOB = 'schedule-sweep';
const CLAIM_LEASE_MS = 60_000;
/** Sends in flight at once in one process: a burst of due schedules is not sent one by one. */
const SEND_CONCURRENCY = 8;
const INTERRUPTED = 'interrupted while sending (server stopped); not sent again so the contact never gets it twice';

/** Queues the occurrence's job; without a job queue (most tests) the sweep alone sends it. */
export async function wakeSchedule(ctx: AppContext, row: Pick<ScheduleRow, 'id' | 'sendAt' | 'status'>): Promise<void> {
  if (!ctx.boss || row.status !== 'PENDENTE') return;
  await ctx.boss
    .send(SCHEDULE_SEND_JOB, { id: row.id }, { startAfter: row.sendAt, singletonKey: `${row.id}@${row.sendAt.toISOString()}` })
    .catch((err: unknown) => ctx.log.warn({ err, scheduleId: row.id }, 'could not queue the schedule; the minute sweep sends it'));
}

/** Claims due PENDENTE rows (all due ones, or only `ids`), skipping rows another worker holds. */
async function claimDue(db: DbOrTx, limit: number, ids?: number[]): Promise<ScheduleRow[]> {
  const due = db
    .select({ id: schedules.id })
    .from(schedules)
    .where(and(eq(schedules.status, 'PENDENTE'), lte(schedules.sendAt, sql`now()`), ids ? inArray(schedules.id, ids) : undefined))
    .orderBy(schedules.sendAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(schedules)
    .set({ status: 'AGENDADA', claimedUntil: sql`now() + ${`${CLAIM_LEASE_MS} milliseconds`}::interval` })
    .where(and(inArray(schedules.id, due), eq(schedules.status, 'PENDENTE')))
    .returning();
}

/** The pg-boss job: sends the schedules it names if they are (still) due and unclaimed. */
export async function runScheduleJobs(ctx: AppContext, ids: number[]): Promise<number> {
  const claimed = await claimDue(ctx.db, ids.length, ids);
  await sendAll(ctx, claimed);
  return claimed.length;
}

/**
 * The minute sweep: marks interrupted sends ERRO, records the channel's verdict on
 * earlier sends, then claims and sends every due schedule, a batch at a time.
 */
export async function sweepSchedules(ctx: AppContext, batch = 200): Promise<number> {
  await failInterrupted(ctx);
  await recordDeliveries(ctx);
  let sent = 0;
  for (;;) {
    const claimed = await claimDue(ctx.db, batch);
    await sendAll(ctx, claimed);
    sent += claimed.length;
    if (claimed.length < batch) return sent;
  }
}

/**
 * Sends a batch of claimed occurrences in three steps: their tickets found or opened together
 * (`ticketsFor`: set-based statements) and their texts (`namesOf`: two reads), all their outbox rows in one batch
 * (`queueOutgoingBatch`), then the batch's outcomes in one UPDATE and one read to announce them.
 * A failure of one occurrence is its ERRO, never the batch's.
 */
async function sendAll(ctx: AppContext, rows: ScheduleRow[]): Promise<void> {
  const people = await contactsOf(ctx.db, rows);
  const connections = await connectionsOf(ctx.db, rows, people);
  const outcomes = new Array<Outcome>(rows.length);
  const sendable = rows.flatMap((row, i) => {
    const contact = people.get(row.contactId);
    const connection = connections.get(row.id);
    try {
      checkSendable(row, contact, connection);
      return [{ i, row, plan: row, contact: contact!, connection: connection! }];
    } catch (error) {
      outcomes[i] = { error };
      return [];
    }
  });
  const carriers = await ticketsFor(ctx, sendable, SEND_CONCURRENCY);
  const names = await namesOf(ctx.db, sendable, carriers);
  sendable.forEach((item, k) => {
    const carrier = carriers[k]!;
    try {
      outcomes[item.i] = 'error' in carrier ? carrier : { ready: messageOf(item.row, item.contact, item.connection, carrier, names) };
    } catch (error) {
      outcomes[item.i] = { error };
    }
  });
  for (const companyId of new Set(rows.map((r) => r.companyId))) {
    const batch = outcomes.filter((o, i): o is { ready: Prepared } => 'ready' in o && rows[i]!.companyId === companyId);
    const queued = await queueOutgoingBatch(
      ctx,
      companyId,
      batch.map((o) => o.ready.message),
    ).catch((err: unknown) => {
      // Nothing of the batch was stored: its occurrences turn ERRO (no message id) below.
      ctx.log.warn({ err, companyId }, 'could not queue the scheduled messages');
      return [];
    });
    batch.forEach((o, k) => (o.ready.messageId = queued[k]?.id));
  }
  await finishAll(ctx, rows, outcomes);
}

interface Prepared {
  message: BatchOutgoing;
  /** The outbox row, once the batch stored it. */
  messageId?: number;
}
type Outcome = { ready: Prepared } | { error: unknown };

/**
 * The batch's outcomes in one UPDATE: each sent occurrence armed for its next time (PENDENTE)
 * or finished (ENVIADA); failures are ERRO with their reason. Every row is announced in one read.
 */
async function finishAll(ctx: AppContext, rows: ScheduleRow[], outcomes: Outcome[]): Promise<void> {
  const sent: SQL[] = [];
  const failed: { row: ScheduleRow; reason: string }[] = [];
  rows.forEach((row, i) => {
    const outcome = outcomes[i]!;
    const messageId = 'ready' in outcome ? outcome.ready.messageId : undefined;
    if (!messageId) {
      failed.push({ row, reason: reasonOf('error' in outcome ? outcome.error : new AppError('ERR_CREATING_MESSAGE', 500)) });
      return;
    }
    const contadorEnvio = row.contadorEnvio + 1;
    const next = nextOccurrence({ ...row, contadorEnvio });
    sent.push(sql`(${row.id}::int, ${contadorEnvio}::int, ${messageId}::int, ${next ? 'PENDENTE' : 'ENVIADA'}::text, ${next?.sendAt ?? row.sendAt}::timestamptz, ${next?.plannedAt ?? row.plannedAt}::timestamptz)`);
  });
  if (sent.length) {
    // Only rows this claim still holds (AGENDADA): a row edited or failed meanwhile is left alone.
    const saved = await ctx.db.execute<{ id: number; send_at: Date | string; status: 'PENDENTE' | 'ENVIADA' }>(sql`
      UPDATE schedules s SET
        contador_envio = v.n, sent_at = now(), updated_at = now(), claimed_until = NULL, reason = NULL,
        pending_message_id = v.message_id, status = v.status, send_at = v.send_at, planned_at = v.planned_at
      FROM (VALUES ${sql.join(sent, sql`, `)}) AS v(id, n, message_id, status, send_at, planned_at)
      WHERE s.id = v.id AND s.status = 'AGENDADA'
      RETURNING s.id, s.send_at, s.status`);
    for (const r of saved.rows) await wakeSchedule(ctx, { id: r.id, sendAt: new Date(r.send_at), status: r.status });
  }
  for (const { row, reason } of failed) {
    ctx.log.warn({ scheduleId: row.id, reason }, 'scheduled message not sent');
    await ctx.db
      .update(schedules)
      .set({ status: 'ERRO', reason: reason.slice(0, 500), claimedUntil: null })
      .where(and(eq(schedules.id, row.id), eq(schedules.status, 'AGENDADA')));
  }
  await announceSchedules(
    ctx,
    rows.map((r) => r.id),
  );
}

const reasonOf = (err: unknown): string => (err instanceof AppError && err.message === err.code ? err.code : err instanceof Error ? err.message : String(err));

/** The batch's contacts in one query, each read within its schedule's company. */
async function contactsOf(db: DbOrTx, rows: ScheduleRow[]): Promise<Map<number, ContactRow>> {
  if (rows.length === 0) return new Map();
  const found = await db
    .select()
    .from(contacts)
    .where(inArray(contacts.id, [...new Set(rows.map((r) => r.contactId))]));
  const companyOf = new Map(rows.map((r) => [r.contactId, r.companyId]));
  return new Map(found.filter((c) => companyOf.get(c.id) === c.companyId).map((c) => [c.id, c]));
}

/** Why an occurrence cannot be sent, before a ticket is touched. */
function checkSendable(row: ScheduleRow, contact: ContactRow | undefined, connection: ConnectionRow | undefined): void {
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND', 404);
  if (!contact.active) throw new AppError('ERR_CONTACT_BLOCKED', 400);
  if (!connection) throw new AppError(row.whatsappId ? 'ERR_NO_WAPP_FOUND' : 'ERR_NO_DEF_WAPP_FOUND', 404);
  if (connection.channel !== contact.channel) throw new AppError('ERR_VALIDATION', 400, 'the contact is not on the connection’s channel');
}

interface Names {
  /** The ticket's user and queue, by ticket id (only tickets whose text has variables). */
  ofTicket: Map<number, { userName: string | null; queueName: string | null }>;
  /** The signers' names, by user id (only schedules with `assinar`). */
  signer: Map<number, string>;
}

/** What the batch's texts need from the database, in two reads for the whole batch (two per occurrence before). */
async function namesOf(db: DbOrTx, sendable: { row: ScheduleRow }[], carriers: (Carrier | { error: unknown })[]): Promise<Names> {
  const ticketIds = [...new Set(sendable.flatMap(({ row }, k) => (row.body.includes('{{') && 'ticketId' in carriers[k]! ? [carriers[k].ticketId] : [])))];
  const signerIds = [...new Set(sendable.flatMap(({ row }) => (row.assinar && signerOf(row) ? [signerOf(row)!] : [])))];
  const [ofTicket, signers] = await Promise.all([
    ticketIds.length
      ? db
          .select({ id: tickets.id, userName: users.name, queueName: queues.name })
          .from(tickets)
          .leftJoin(users, eq(users.id, tickets.userId))
          .leftJoin(queues, eq(queues.id, tickets.queueId))
          .where(inArray(tickets.id, ticketIds))
      : [],
    signerIds.length ? db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, signerIds)) : [],
  ]);
  return { ofTicket: new Map(ofTicket.map(({ id, ...n }) => [id, n])), signer: new Map(signers.map((u) => [u.id, u.name])) };
}

/** Signed by the user who gets the ticket, else by its author. */
const signerOf = (row: ScheduleRow): number | null => row.ticketUserId ?? row.userId;

/** The message of one occurrence, ready for the outbox: its text filled and signed. */
function messageOf(row: ScheduleRow, contact: ContactRow, connection: ConnectionRow, { ticketId, openedHere }: Carrier, names: Names): Prepared {
  const ofTicket = names.ofTicket.get(ticketId);
  const filled = fillVariables(row.body, { contactName: contact.name, userName: ofTicket?.userName, queueName: ofTicket?.queueName, connectionName: connection.name, ticketId });
  const signer = row.assinar ? names.signer.get(signerOf(row) ?? -1) : undefined;
  // The signature as the composer writes it (the server adds none to attendants' messages).
  const body = signer ? `*${signer}:*\n${filled}` : filled;
  return {
    message: {
      ticketId,
      body,
      media: row.mediaPath ? mediaOf(row.mediaPath) : undefined,
      // A ticket opened only to carry the message is closed with it (statusTicket closed, or openTicket disabled); a conversation already under way is left alone.
      closeTicket: openedHere && (row.openTicket === 'disabled' || row.statusTicket === 'closed'),
    },
  };
}

type ContactRow = typeof contacts.$inferSelect;
type ConnectionRow = typeof whatsapps.$inferSelect;

/**
 * Each schedule's connection, for the whole batch in three queries: the schedule's own;
 * else the one the contact last talked on (its latest ticket); else the company's default
 * for the contact's channel.
 */
async function connectionsOf(db: DbOrTx, rows: ScheduleRow[], people: Map<number, ContactRow>): Promise<Map<number, ConnectionRow>> {
  const companyIds = [...new Set(rows.map((r) => r.companyId))];
  const all = companyIds.length ? await db.select().from(whatsapps).where(inArray(whatsapps.companyId, companyIds)).orderBy(desc(whatsapps.isDefault), whatsapps.id) : [];
  const byId = new Map(all.map((w) => [w.id, w]));
  const free = [...new Set(rows.filter((r) => !r.whatsappId).map((r) => r.contactId))];
  const last = free.length
    ? await db
        .selectDistinctOn([tickets.contactId], { contactId: tickets.contactId, whatsappId: tickets.whatsappId })
        .from(tickets)
        .where(and(inArray(tickets.contactId, free), isNotNull(tickets.whatsappId)))
        .orderBy(tickets.contactId, desc(tickets.updatedAt))
    : [];
  const lastOf = new Map(last.map((t) => [t.contactId, t.whatsappId]));
  const chosen = new Map<number, ConnectionRow>();
  for (const row of rows) {
    const contact = people.get(row.contactId);
    const pick = row.whatsappId
      ? byId.get(row.whatsappId)
      : (byId.get(lastOf.get(row.contactId) ?? -1) ?? all.find((w) => w.companyId === row.companyId && w.channel === contact?.channel));
    // `all` holds only the batch's companies' connections, but a row must get its own company's.
    if (pick && pick.companyId === row.companyId) chosen.set(row.id, pick);
  }
  return chosen;
}

export function mediaOf(fileName: string): { fileName: string; mimetype: string; mediaType: MediaType } {
  const mimetype = mimetypeOfStored(fileName);
  const family = mimetype.split('/')[0];
  return { fileName, mimetype, mediaType: family === 'image' || family === 'video' || family === 'audio' ? family : 'application' };
}

/** Claims whose process died mid-send (lease lapsed): ERRO, never a second send. */
async function failInterrupted(ctx: AppContext): Promise<void> {
  const rows = await ctx.db
    .update(schedules)
    .set({ status: 'ERRO', reason: INTERRUPTED, claimedUntil: null })
    .where(and(eq(schedules.status, 'AGENDADA'), lte(schedules.claimedUntil, sql`now()`)))
    .returning({ id: schedules.id, companyId: schedules.companyId });
  await announceSchedules(
    ctx,
    rows.map((r) => r.id),
  );
}

/** The channel's verdict on earlier sends: a message that failed for good turns its schedule ERRO with the channel's reason. */
async function recordDeliveries(ctx: AppContext): Promise<void> {
  // One statement for every settled send (a burst leaves thousands): the link cleared, a failure turned ERRO.
  const { rows } = await ctx.db.execute<{ id: number; failed: boolean }>(sql`
    UPDATE schedules s SET
      pending_message_id = NULL,
      status = CASE WHEN m.send_status = 'failed' THEN 'ERRO' ELSE s.status END,
      reason = CASE WHEN m.send_status = 'failed' THEN left(coalesce(m.last_error, 'the channel refused the message'), 500) ELSE s.reason END
    FROM messages m
    WHERE m.id = s.pending_message_id AND m.send_status IN ('sent', 'failed')
    RETURNING s.id, m.send_status = 'failed' AS failed`);
  await announceSchedules(
    ctx,
    rows.filter((r) => r.failed).map((r) => r.id),
  );
}
