import type { MediaType } from '@balcao/contracts';
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { contacts, messages, tickets, whatsappQueues } from '../db/schema/index.js';
import type { AppContext } from '../http/context.js';
import { requestContactPicture } from '../modules/contacts/picture.js';
import { loadContact, upsertContact } from '../modules/contacts/queries.js';
import { findMessageByWid } from '../modules/messages/queries.js';
import { writeTicketLogs } from '../modules/tickets/logs.js';
import { findOrCreateTicket, touchTicketAfterMessage } from '../modules/tickets/queries.js';
import type { Connection } from './adapter.js';
import { runInboundBehaviours } from './behaviours/inbound.js';
import { emitMessageCreate, emitMessageUpdate, emitTicketUpdate } from './emit.js';

/** A person or group as a channel names it. */
export interface InboundParty {
  /** Phone digits, group id, or PSID / IGSID. */
  number: string;
  name: string;
  remoteJid: string;
  isGroup: boolean;
  pictureUrl?: string | null;
}

export interface InboundMedia {
  data: Buffer;
  mimetype: string;
  fileName?: string;
}

/** A message as every adapter hands it to the pipeline. */
export interface InboundMessage {
  kind: 'message';
  wid: string;
  fromMe: boolean;
  body: string;
  mediaType: MediaType;
  /** Downloads the media (only called for a message not seen before). */
  loadMedia?: () => Promise<InboundMedia | null>;
  /** Name and picture of a contact seen for the first time (Meta profile lookup). */
  lookupProfile?: () => Promise<{ name?: string; pictureUrl?: string | null } | null>;
  quotedWid?: string | null;
  isForwarded?: boolean;
  at: Date;
  /** The conversation: the contact, or the group. */
  chat: InboundParty;
  /** In a group: who wrote. */
  sender?: InboundParty;
  raw: unknown;
}

export type InboundEvent =
  | InboundMessage
  | { kind: 'edit'; wid: string; body: string }
  | { kind: 'delete'; wid: string }
  /** Our message's delivery state changed (ack 1–5), or the channel refused it. */
  | { kind: 'ack'; wid: string; ack: number; error?: string }
  /** Meta watermarks: every message of ours to this contact up to `upTo` reached `ack`. */
  | { kind: 'watermark'; chatNumber: string; upTo: Date; ack: number };

export interface ImportMode {
  queueId: number | null;
  importedAt: Date;
}

export type InboundResult =
  | { outcome: 'stored'; messageId: number; ticketId: number; ticketCreated: boolean }
  | { outcome: 'duplicate' | 'ignored' | 'updated' };

/**
 * The one inbound pipeline (ARCHITECTURE §7): contact upsert → ticket find-or-create
 * → idempotent message insert → connection behaviours → socket events. Every step
 * relies on a unique key, so a redelivery or concurrent first messages converge.
 */
export async function processInbound(ctx: AppContext, connection: Connection, event: InboundEvent, importMode?: ImportMode): Promise<InboundResult> {
  switch (event.kind) {
    case 'message':
      return storeMessage(ctx, connection, event, importMode);
    case 'edit':
      return updateByWid(ctx, connection, event.wid, { body: event.body, isEdited: true });
    case 'delete':
      return updateByWid(ctx, connection, event.wid, { isDeleted: true });
    case 'ack':
      return applyAck(ctx, connection, event);
    case 'watermark':
      return applyWatermark(ctx, connection, event);
  }
}

async function storeMessage(ctx: AppContext, connection: Connection, m: InboundMessage, importMode?: ImportMode): Promise<InboundResult> {
  if (m.chat.isGroup && !(importMode ? connection.importOldMessagesGroups : connection.allowGroup)) return { outcome: 'ignored' };
  // Cheap early exit for redeliveries; the insert below is still ON CONFLICT DO NOTHING.
  if (await findMessageByWid(ctx.db, connection.id, m.wid)) return { outcome: 'duplicate' };

  const companyId = connection.companyId;
  const { contact: chat, created: chatCreated } = await upsertContact(ctx.db, {
    companyId,
    channel: connection.channel,
    number: m.chat.number,
    name: m.chat.name,
    remoteJid: m.chat.remoteJid,
    isGroup: m.chat.isGroup,
    profilePicUrl: m.chat.pictureUrl,
  });
  let chatContact = chat;
  if (chatCreated && m.lookupProfile) chatContact = (await enrichContact(ctx, chat.id, m.lookupProfile)) ?? chat;
  requestContactPicture(ctx, connection, chatContact, m.chat.pictureUrl);
  const sender = m.sender
    ? (
        await upsertContact(ctx.db, {
          companyId,
          channel: connection.channel,
          number: m.sender.number,
          name: m.sender.name,
          remoteJid: m.sender.remoteJid,
          isGroup: false,
        })
      ).contact
    : chatContact;

  const found = await findOrCreateTicket(ctx.db, {
    companyId,
    contactId: chatContact.id,
    whatsappId: connection.id,
    channel: connection.channel,
    isGroup: m.chat.isGroup,
    status: m.chat.isGroup && connection.groupAsTicket === 'disabled' ? 'group' : 'pending',
    queueId: async () => (importMode ? importMode.queueId : soleQueueId(ctx, connection.id)),
    reopenWithinMinutes: importMode ? 0 : connection.timeCreateNewTicket,
    importedAt: importMode?.importedAt,
    firstMessageAt: importMode ? m.at : new Date(),
  });
  if (found.created || found.reopened) {
    await writeTicketLogs(ctx.db, [{ companyId, ticketId: found.ticket.id, type: found.created ? 'create' : 'reopen', queueId: found.ticket.queueId }]);
  }

  const media = m.loadMedia ? await saveMedia(ctx, companyId, m) : null;
  const at = importMode ? m.at : new Date();
  const [row] = await ctx.db
    .insert(messages)
    .values({
      companyId,
      ticketId: found.ticket.id,
      contactId: m.fromMe ? null : sender.id,
      whatsappId: connection.id,
      queueId: found.ticket.queueId,
      wid: m.wid,
      body: m.body,
      fromMe: m.fromMe,
      read: m.fromMe || !!importMode,
      // Sent from another device (or the page inbox): already on the channel.
      ack: m.fromMe ? 1 : 0,
      mediaType: m.mediaType,
      mediaUrl: media,
      isForwarded: m.isForwarded ?? false,
      quotedMsgId: m.quotedWid ? await quotedId(ctx, connection.id, m.quotedWid) : null,
      data: m.raw as object,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing({ target: [messages.whatsappId, messages.wid] })
    .returning({ id: messages.id });
  if (!row) return { outcome: 'duplicate' };

  const ticket = await touchTicketAfterMessage(ctx.db, found.ticket.id, {
    body: m.body,
    fromMe: m.fromMe,
    at,
    countUnread: !m.fromMe && !importMode,
  });
  if (importMode) return { outcome: 'stored', messageId: row.id, ticketId: found.ticket.id, ticketCreated: found.created };

  if (chatCreated) emitContactCreate(ctx, companyId, chatContact.id);
  const presented = await emitTicketUpdate(ctx, found.ticket.id);
  if (presented) await emitMessageCreate(ctx, row.id, presented);
  if (!m.fromMe && ticket) ctx.background.run('connection behaviours', () => runInboundBehaviours(ctx, { connection, found, ticket, body: m.body }));
  return { outcome: 'stored', messageId: row.id, ticketId: found.ticket.id, ticketCreated: found.created };
}

async function enrichContact(ctx: AppContext, contactId: number, lookup: NonNullable<InboundMessage['lookupProfile']>) {
  const profile = await lookup().catch(() => null);
  const set = {
    ...(profile?.name ? { name: profile.name } : {}),
    ...(profile?.pictureUrl ? { profilePicUrl: profile.pictureUrl } : {}),
  };
  if (Object.keys(set).length === 0) return undefined;
  const [row] = await ctx.db
    .update(contacts)
    .set(set)
    .where(eq(contacts.id, contactId))
    .returning();
  return row;
}

function emitContactCreate(ctx: AppContext, companyId: number, contactId: number): void {
  ctx.background.run('contact event', async () => {
    const contact = await loadContact(ctx.db, companyId, contactId);
    if (contact) ctx.realtime.emitToCompany(companyId, 'contact', { action: 'create', contact });
  });
}

/** A connection with exactly one queue puts its tickets there (queue choice menus come later). */
async function soleQueueId(ctx: AppContext, whatsappId: number): Promise<number | null> {
  const rows = await ctx.db.select({ queueId: whatsappQueues.queueId }).from(whatsappQueues).where(eq(whatsappQueues.whatsappId, whatsappId)).limit(2);
  return rows.length === 1 ? rows[0]!.queueId : null;
}

async function quotedId(ctx: AppContext, whatsappId: number, wid: string): Promise<number | null> {
  return (await findMessageByWid(ctx.db, whatsappId, wid))?.id ?? null;
}

/** Downloads and stores the media; a failure keeps the message (without its file) rather than losing it. */
async function saveMedia(ctx: AppContext, companyId: number, m: InboundMessage): Promise<string | null> {
  try {
    const media = await m.loadMedia!();
    if (!media) return null;
    const saved = await ctx.storage.save(companyId, media.data, media.mimetype, media.fileName);
    return saved.fileName;
  } catch (err) {
    ctx.log.warn({ err: err instanceof Error ? err.message : String(err), wid: m.wid }, 'media download failed; message kept without its file');
    return null;
  }
}

async function updateByWid(
  ctx: AppContext,
  connection: Connection,
  wid: string,
  set: { body?: string; isEdited?: boolean; isDeleted?: boolean },
): Promise<InboundResult> {
  const [row] = await ctx.db
    .update(messages)
    .set(set)
    .where(and(eq(messages.whatsappId, connection.id), eq(messages.wid, wid)))
    .returning({ id: messages.id, ticketId: messages.ticketId });
  if (!row) return { outcome: 'ignored' };
  if (set.body !== undefined) await ctx.db.update(tickets).set({ lastMessage: set.body }).where(eq(tickets.id, row.ticketId));
  await emitMessageUpdate(ctx, row.id);
  return { outcome: 'updated' };
}

/** Acks only move forward; a channel error marks the message failed. */
async function applyAck(ctx: AppContext, connection: Connection, e: { wid: string; ack: number; error?: string }): Promise<InboundResult> {
  const where = and(eq(messages.whatsappId, connection.id), eq(messages.wid, e.wid), eq(messages.fromMe, true));
  const rows = e.error
    ? await ctx.db.update(messages).set({ sendStatus: 'failed', lastError: e.error, nextAttemptAt: null }).where(where).returning({ id: messages.id })
    : await ctx.db
        .update(messages)
        .set({ ack: e.ack, sendStatus: 'sent' })
        .where(and(where, lt(messages.ack, e.ack)))
        .returning({ id: messages.id });
  for (const r of rows) await emitMessageUpdate(ctx, r.id);
  return { outcome: rows.length ? 'updated' : 'ignored' };
}

async function applyWatermark(ctx: AppContext, connection: Connection, e: { chatNumber: string; upTo: Date; ack: number }): Promise<InboundResult> {
  const [contact] = await ctx.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.companyId, connection.companyId), eq(contacts.channel, connection.channel), eq(contacts.number, e.chatNumber)));
  if (!contact) return { outcome: 'ignored' };
  const ticketIds = ctx.db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.contactId, contact.id), eq(tickets.whatsappId, connection.id)));
  const rows = await ctx.db
    .update(messages)
    .set({ ack: e.ack })
    .where(
      and(
        inArray(messages.ticketId, ticketIds),
        eq(messages.fromMe, true),
        gte(messages.ack, 1),
        lt(messages.ack, e.ack),
        sql`${messages.createdAt} <= ${e.upTo}`,
      ),
    )
    .returning({ id: messages.id });
  for (const r of rows) await emitMessageUpdate(ctx, r.id);
  return { outcome: rows.length ? 'updated' : 'ignored' };
}
