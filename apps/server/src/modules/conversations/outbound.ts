import type { MediaType } from '@balcao/contracts';
import { and, eq, inArray, not, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { contacts, messages, tickets, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { touchTicketAfterMessage } from './commands/ticket-rows.js';
import { insertOutgoingTouching, type OutgoingValues } from './commands/outgoing-row.js';
import type { MessageRow } from '../messages/presenter.js';
import type { TicketRow } from '../tickets/presenter.js';
import type { ContactRow } from '../contacts/presenter.js';
import { includesOf, presentStored, type Includes } from './present-stored.js';
import { buildVcard, parseVcard, type ContactCard } from '../messages/vcard.js';
import { ChannelSendError, type Connection, type OutgoingMessage, type Recipient } from '../../channels/adapter.js';
import { emitMessageCreate, emitMessageUpdate, emitTicketUpdate } from './emit.js';
import { recordSent } from './outbound-sent.js';

/** How long a claimed row is left alone by the sweeper while its send is in flight (a crash frees it after this). */
const SEND_LEASE_MS = 60_000;
export const OUTBOX_RETRY_JOB = 'outbox-retry';

export interface OutgoingInput {
  companyId: number;
  ticketId: number;
  body: string;
  /** A file already stored with ctx.storage. */
  media?: { fileName: string; mimetype: string; mediaType: MediaType };
  quotedMsgId?: number | null;
  /** Internal note: stored and shown, never sent. */
  isPrivate?: boolean;
  /** A contact card (`contactMessage`): its vCard becomes the body. */
  contactCard?: ContactCard;
  isForwarded?: boolean;
  /**
   * The ticket row, its connection and its contact when the caller has just read or written
   * them: no re-read, and the events are presented from the written rows (`presentStored`);
   * with `includes` read with the ticket (its queue, owner and tags, unchanged by the message), no presenting read.
   */
  target?: { ticket: TicketRow; connection: Connection; chat: ContactRow; includes?: Includes };
}

/** A new outbox row's `nextAttemptAt`: the sweeper leaves it alone while its first send is in flight. */
export const firstSendLease = () => new Date(Date.now() + SEND_LEASE_MS);

/**
 * Stores an outgoing message (ack 0, outbox state `pending`) and announces it, then
 * sends it right away without making the caller wait. The row is the outbox entry:
 * if the process dies before the send, the sweeper sends it later.
 */
export async function queueOutgoing(ctx: AppContext, input: OutgoingInput): Promise<MessageRow> {
  const held = input.target?.ticket.companyId === input.companyId && input.target.ticket.id === input.ticketId;
  const [target] = held
    ? [{ ticket: input.target!.ticket, channel: input.target!.connection.channel }]
    : await ctx.db
        .select({ ticket: tickets, channel: whatsapps.channel })
        .from(tickets)
        .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
        .where(and(eq(tickets.companyId, input.companyId), eq(tickets.id, input.ticketId)));
  if (!target) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  const { ticket } = target;
  const wid = target.channel && !input.isPrivate ? (ctx.channels.adapterFor(target.channel).newMessageId?.() ?? null) : null;
  const body = input.contactCard ? buildVcard(input.contactCard) : input.body;

  const values: OutgoingValues = {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    whatsappId: ticket.whatsappId,
    queueId: ticket.queueId,
    wid,
    body,
    mediaType: input.media?.mediaType ?? (input.contactCard ? 'contactMessage' : 'chat'),
    mediaUrl: input.media?.fileName ?? null,
    isForwarded: input.isForwarded ?? false,
    quotedMsgId: input.quotedMsgId ?? null,
    data: input.media ? { mimetype: input.media.mimetype } : null,
    nextAttemptAt: firstSendLease(),
  };
  // Usually nothing records the message's facts (no webhook wants them): the message and the ticket's preview are one statement.
  const alone = !input.isPrivate && !(await ctx.events.wantsInTransaction('message.created', ticket.companyId));
  // Else the message, the ticket's preview and the message's outbox facts (webhooks) commit together.
  const { row, touched } = alone ? await insertOutgoingTouching(ctx, values) : await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(messages)
      .values({
        ...values,
        fromMe: true,
        read: true,
        ack: 0,
        isPrivate: input.isPrivate ?? false,
        sendStatus: input.isPrivate ? null : 'pending',
        nextAttemptAt: input.isPrivate ? null : values.nextAttemptAt,
        // The first send's claim (`deliver`'s UPDATE) made by the insert: sent at once unless the session runs on another node.
        sendAttempts: input.isPrivate ? 0 : sql<number>`CASE WHEN ${ctx.channels.whatsapp.leases.heldElsewhere(sql`${ticket.whatsappId}::int`)} THEN 0 ELSE 1 END`,
      })
      .returning();
    if (!row) throw new AppError('ERR_CREATING_MESSAGE', 500);
    // A private note is not part of the conversation with the customer: the row preview and the timers ignore it (and so do webhooks).
    if (input.isPrivate) return { row, touched: undefined };
    await ctx.events.record(tx, { type: 'message.created', messageIds: [row.id], companyId: row.companyId });
    return { row, touched: await touchTicketAfterMessage(tx, ticket.id, { body, fromMe: true, at: row.createdAt, countUnread: false }) };
  });
  return announceQueued(ctx, row, touched, held ? input.target : undefined);
}

/**
 * Announces a stored outbox row (its ticket's update, then its creation) and starts its send in the
 * background. `held`: the contact and connection (and the ticket's includes) the caller holds, with
 * `touched`, the ticket as the message's write left it: the events are presented from them (one
 * statement, none with the includes) and the send reads nothing again.
 */
export async function announceQueued(ctx: AppContext, row: MessageRow, touched: TicketRow | undefined, held?: Omit<NonNullable<OutgoingInput['target']>, 'ticket'>): Promise<MessageRow> {
  const { chat, connection, includes: read } = held ?? {};
  const includes = touched && chat && connection ? (read ?? (await includesOf(ctx, touched))) : undefined;
  const stored = includes && (await presentStored(ctx, { ticket: touched!, message: row, chat: chat!, sender: chat!, connection: connection! }, includes));
  if (stored) {
    await ctx.events.publish({ type: 'ticket.updated', ticket: stored.ticket, hidesNumbers: stored.hidesNumbers }, { type: 'message.created', ...stored });
  } else {
    const presented = await emitTicketUpdate(ctx, row.ticketId);
    if (presented) await emitMessageCreate(ctx, row.id, presented);
  }
  // The rows just written (and how they were presented) are the send's target too: the send reads them again only without them.
  const sendTo = touched && chat && connection ? { ticket: touched, connection, contact: chat, to: recipientOf(chat), includes } : undefined;
  // A private note (no outbox state) is never sent.
  if (row.sendStatus === 'pending') ctx.background.run('send', () => deliverOrRoute(ctx, row, sendTo));
  return row;
}

/** A WhatsApp session runs on one API node (its lease): only that node claims the session's outbox rows. */
export const sentHere = (ctx: AppContext) => not(ctx.channels.whatsapp.leases.heldElsewhere(sql.raw('"messages"."whatsapp_id"')));

/**
 * One send attempt of an outbox row. `first` claims a row never tried; `retry`
 * claims it only when due, so the pg-boss retry job and the sweeper never double-send.
 * Answers whether this node claimed it.
 */
export async function deliver(ctx: AppContext, messageId: number, mode: 'first' | 'retry', held?: SendTarget): Promise<boolean> {
  const due = mode === 'first' ? sql`${messages.sendAttempts} = 0` : sql`${messages.nextAttemptAt} <= now()`;
  const [row] = await ctx.db
    .update(messages)
    .set({ sendAttempts: sql`${messages.sendAttempts} + 1`, nextAttemptAt: new Date(Date.now() + SEND_LEASE_MS) })
    .where(and(eq(messages.id, messageId), eq(messages.sendStatus, 'pending'), due, sentHere(ctx)))
    .returning();
  if (row) await attempt(ctx, row, held);
  return row !== undefined;
}

/**
 * A new row, claimed by its insert (`sendAttempts` 1), is sent here; one whose session runs on
 * another node (not claimed) is sent by that node, told at once (else its sweep finds it).
 */
export async function deliverOrRoute(ctx: AppContext, row: MessageRow, held?: SendTarget): Promise<void> {
  if (row.sendAttempts > 0) await attempt(ctx, row, held);
  else await ctx.channels.whatsapp.leases.route(row.id);
}

/** A session (re)opened on this node: its rows never tried (queued while it was down or moving between nodes) go out now. */
export async function deliverQueued(ctx: AppContext, whatsappId: number): Promise<number> {
  const queued = await ctx.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), eq(messages.sendStatus, 'pending'), eq(messages.sendAttempts, 0)))
    .orderBy(messages.id);
  let sent = 0;
  for (const { id } of queued) if (await deliver(ctx, id, 'first')) sent += 1;
  return sent;
}

/** Claims the due outbox rows (SKIP LOCKED: several nodes may sweep at once) and sends them. */
export async function sweepOutbox(ctx: AppContext, limit = 50): Promise<number> {
  const due = ctx.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.sendStatus, 'pending'), sql`${messages.nextAttemptAt} <= now()`, sentHere(ctx)))
    .orderBy(messages.nextAttemptAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await ctx.db
    .update(messages)
    .set({ sendAttempts: sql`${messages.sendAttempts} + 1`, nextAttemptAt: new Date(Date.now() + SEND_LEASE_MS) })
    .where(inArray(messages.id, due))
    .returning();
  for (const row of rows) await attempt(ctx, row);
  return rows.length;
}

/** `held`: the ticket, connection and contact when the caller has just written or read them (no re-read). */
async function attempt(ctx: AppContext, row: MessageRow, held?: SendTarget): Promise<void> {
  let target: SendTarget | undefined;
  let settled: MessageRow | undefined;
  try {
    target = held ?? (await channelTarget(ctx, row.ticketId));
    const adapter = ctx.channels.adapterFor(target.connection.channel);
    const { wid } = await adapter.send(target.connection, await outgoingFor(ctx, row, target.to));
    settled = await recordSent(ctx, row, wid, (r, w) => markSent(ctx, r, w));
  } catch (err) {
    settled = await markFailedAttempt(ctx, row, err);
  }
  await announceAttempt(ctx, row.id, settled, target);
}

/**
 * The attempt's `message.updated`, presented from the row the outcome wrote and the ticket,
 * contact and connection read for the send (one statement, `presentStored`) instead of re-reading
 * message and ticket (six): the ticket is as it was when the send started.
 */
async function announceAttempt(ctx: AppContext, messageId: number, settled: MessageRow | undefined, target: SendTarget | undefined): Promise<void> {
  const stored =
    settled &&
    target &&
    (await presentStored(ctx, { ticket: target.ticket, message: settled, chat: target.contact, sender: target.contact, connection: target.connection }, target.includes));
  if (!stored) return emitMessageUpdate(ctx, messageId);
  await ctx.events.publish({ type: 'message.updated', message: stored.message, ticket: stored.ticket, hidesNumbers: stored.hidesNumbers });
}

export interface SendTarget {
  connection: Connection;
  to: Recipient;
  ticket: TicketRow;
  contact: ContactRow;
  /** How the ticket was presented when the row was queued: its `message.updated` is presented with it, without a statement. */
  includes?: Includes;
}

/** The ticket's connection and its contact as the channel addresses it (sends, edits, deletes), with the rows read. */
export async function channelTarget(ctx: AppContext, ticketId: number): Promise<SendTarget> {
  const target = (await channelTargets(ctx, [ticketId])).get(ticketId);
  if (!target) throw new ChannelSendError('the ticket has no connection', true);
  return target;
}

/** `channelTarget` of several tickets in one statement, by ticket id (a ticket without a connection is left out). */
export async function channelTargets(ctx: AppContext, ticketIds: number[]): Promise<Map<number, SendTarget>> {
  if (ticketIds.length === 0) return new Map();
  const rows = await ctx.db
    .select({ ticket: tickets, connection: whatsapps, contact: contacts })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .innerJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .where(inArray(tickets.id, ticketIds));
  return new Map(rows.map((row) => [row.ticket.id, { ...row, to: recipientOf(row.contact) }]));
}

const recipientOf = (contact: ContactRow): Recipient => ({ number: contact.number, remoteJid: contact.remoteJid, isGroup: contact.isGroup });

export async function outgoingFor(ctx: AppContext, row: MessageRow, to: Recipient): Promise<OutgoingMessage> {
  const quoted = row.quotedMsgId
    ? (await ctx.db.select({ wid: messages.wid }).from(messages).where(eq(messages.id, row.quotedMsgId)))[0]?.wid
    : null;
  const mimetype = (row.data as { mimetype?: string } | null)?.mimetype ?? 'application/octet-stream';
  return {
    to,
    body: row.body,
    quotedWid: quoted ?? null,
    wid: row.wid,
    media: row.mediaUrl
      ? {
          read: () => ctx.storage.read(row.companyId, row.mediaUrl!),
          url: ctx.storage.url(ctx.config.apiUrl, row.companyId, row.mediaUrl),
          fileName: row.mediaUrl,
          mimetype,
          mediaType: row.mediaType,
        }
      : undefined,
    contactCard: row.mediaType === 'contactMessage' ? { ...parseVcard(row.body), vcard: row.body } : undefined,
  };
}

/** The outcome of every successful send, as a named prepared statement built once per database handle (building it was CPU each send paid). */
function prepareMarkSent(db: Db) {
  return db
    .update(messages)
    // updated_at by the database: Drizzle's $onUpdate default would be evaluated once, when the statement is built.
    .set({ wid: sql`${sql.placeholder('wid')}`, ack: sql`GREATEST(${messages.ack}, 1)`, sendStatus: 'sent', nextAttemptAt: null, lastError: null, updatedAt: sql`now()` })
    .where(eq(messages.id, sql.placeholder('id')))
    .returning()
    .prepare('outbox_mark_sent');
}

const markSentStatements = new WeakMap<Db, ReturnType<typeof prepareMarkSent>>();

export async function markSent(ctx: AppContext, row: MessageRow, wid: string): Promise<MessageRow | undefined> {
  let statement = markSentStatements.get(ctx.db);
  if (!statement) markSentStatements.set(ctx.db, (statement = prepareMarkSent(ctx.db)));
  try {
    return (await statement.execute({ id: row.id, wid }))[0];
  } catch (err) {
    // The channel's echo of this very send was stored first under the same id: keep ours, drop the echo.
    if ((err as { cause?: { code?: string } }).cause?.code !== '23505' && (err as { code?: string }).code !== '23505') throw err;
    await ctx.db
      .delete(messages)
      .where(and(eq(messages.whatsappId, row.whatsappId ?? -1), eq(messages.wid, wid), sql`${messages.sendStatus} IS NULL`, eq(messages.fromMe, true)));
    return (await statement.execute({ id: row.id, wid }))[0];
  }
}

export async function markFailedAttempt(ctx: AppContext, row: MessageRow, err: unknown): Promise<MessageRow | undefined> {
  const attempts = row.sendAttempts;
  const reason = err instanceof Error ? err.message : String(err);
  const permanent = err instanceof ChannelSendError && err.permanent;
  if (permanent || attempts >= ctx.config.outbox.maxAttempts) {
    ctx.log.warn({ messageId: row.id, attempts, reason }, 'message send failed for good');
    const [failed] = await ctx.db
      .update(messages)
      .set({ sendStatus: 'failed', lastError: reason.slice(0, 500), nextAttemptAt: null })
      .where(eq(messages.id, row.id))
      .returning();
    return failed;
  }
  const delayMs = ctx.config.outbox.retryBaseMs * 2 ** (attempts - 1);
  // One clock reading for both: the next attempt is due exactly one delay after the failure is recorded.
  const now = Date.now();
  const [waiting] = await ctx.db
    .update(messages)
    .set({ lastError: reason.slice(0, 500), nextAttemptAt: new Date(now + delayMs), updatedAt: new Date(now) })
    .where(eq(messages.id, row.id))
    .returning();
  if (ctx.boss) {
    await ctx.boss
      .send(OUTBOX_RETRY_JOB, { messageId: row.id }, { startAfter: Math.max(1, Math.ceil(delayMs / 1000)) })
      .catch((e: unknown) => ctx.log.warn({ err: e }, 'could not schedule the retry; the sweeper will pick it up'));
  }
  return waiting;
}
