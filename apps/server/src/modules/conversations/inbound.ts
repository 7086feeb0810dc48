import { and, eq, exists, gt, gte, inArray, lt, notExists, sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { companySettings, contacts, messages, tickets, whatsappQueues } from '../../db/schema/index.js';
import type { Tx } from '../../db/client.js';
import type { AppContext } from '../../http/context.js';
import { requestContactPicture } from '../contacts/picture.js';
import { isStale, upsertContact, type ContactInput } from '../contacts/queries.js';
import { writeTicketLogs } from '../tickets/logs.js';
import { presentContact, type ContactRow } from '../contacts/presenter.js';
import type { DomainEvent } from '../../events/types.js';
import type { MessageRow } from '../messages/presenter.js';
import type { TicketRow } from '../tickets/presenter.js';
import { isUniqueViolation } from '../tickets/queries.js';
import { storeKnownMessages, type StatementMessage } from './commands/inbound-known.js';
import { storeNewChats, type NewChatStored } from './commands/inbound-new.js';
import { findOrCreateTicket, liveTicketsOf, ticketPairKey, touchTicketsAfterMessages, type FoundTicket, type TicketTouch } from './commands/ticket-rows.js';
import type { Connection } from '../../channels/adapter.js';
import type { ImportMode, InboundEvent, InboundMessage } from '../../channels/inbound-event.js';
import { runBatchBehaviours, type InboundContext } from './behaviours/batch.js';
import { emitMessageUpdate, emitTicketUpdate } from './emit.js';
import { presentStoredAll, type Includes } from './present-stored.js';

export type InboundResult =
  | { outcome: 'stored'; messageId: number; ticketId: number; ticketCreated: boolean }
  | { outcome: 'duplicate' | 'ignored' | 'updated' };

/**
 * The one inbound pipeline (ARCHITECTURE §7): contact upsert → ticket find-or-create
 * → idempotent message insert → connection behaviours → socket events. Every step
 * relies on a unique key, so a redelivery or concurrent first messages converge.
 */
export async function processInbound(ctx: AppContext, connection: Connection, event: InboundEvent, options: InboundOptions = {}): Promise<InboundResult> {
  const announce = options.announce ?? ((emit) => emit());
  switch (event.kind) {
    case 'message':
      return storeMessage(ctx, connection, event, options.importMode, announce);
    case 'edit':
      return updateByWid(ctx, connection, event.wid, { body: event.body, isEdited: true }, announce);
    case 'delete':
      return updateByWid(ctx, connection, event.wid, { isDeleted: true }, announce);
    case 'ack':
      return applyAck(ctx, connection, event, announce);
    case 'watermark':
      return applyWatermark(ctx, connection, event, announce);
  }
}

/** Runs the socket events of a committed change; the ingest lanes queue them so the next message's transaction need not wait. */
export type Announce = (emit: () => Promise<void>) => Promise<void> | void;

export interface InboundOptions {
  importMode?: ImportMode;
  /** Default: the events are emitted before processInbound resolves. */
  announce?: Announce;
}

/** What a message needs before its transaction: network calls (profile, media) never run inside one. */
interface Prepared {
  connection: Connection;
  m: InboundMessage;
  importMode?: ImportMode;
  profile: { name?: string; pictureUrl?: string | null } | null;
  media: string | null;
  /** The chat's contact row as read before the transaction (null: none yet). */
  known: ContactRow | null;
}

/** A group message the connection does not take. */
function ignoredGroup(connection: Connection, m: InboundMessage, importMode: ImportMode | undefined): boolean {
  return m.chat.isGroup && !(importMode ? connection.importOldMessagesGroups : connection.allowGroup);
}

/** Null when the message stops here: an ignored group, or a redelivery. */
async function prepareMessage(ctx: AppContext, connection: Connection, m: InboundMessage, importMode: ImportMode | undefined): Promise<Prepared | InboundResult> {
  if (ignoredGroup(connection, m, importMode)) return { outcome: 'ignored' };
  // One read before the transaction: a redelivery stops here, and a first contact gets its profile looked up
  // (network calls stay outside the transaction; the insert below is still ON CONFLICT DO NOTHING).
  return prepareSeen(ctx, connection, m, importMode, (await seenBeforeAll(ctx, [{ connection, m }]))[0]!);
}

/** A batch's profile lookups by chat: a new customer's messages of one batch ask the channel once. */
type Lookups = Map<string, Promise<Prepared['profile']>>;

/** The chat's profile when its contact is new and the channel can look it up: asked once per chat of the batch. */
function lookupOnce(lookups: Lookups, connection: Connection, m: InboundMessage, seen: Seen): Promise<Prepared['profile']> {
  if (seen.message || seen.contact || !m.lookupProfile) return Promise.resolve(null);
  const chat = `${connection.id}:${m.chat.number}`;
  let profile = lookups.get(chat);
  if (!profile) lookups.set(chat, (profile = m.lookupProfile().catch(() => null)));
  return profile;
}

async function prepareSeen(
  ctx: AppContext,
  connection: Connection,
  m: InboundMessage,
  importMode: ImportMode | undefined,
  seen: Seen,
  lookups: Lookups = new Map(),
): Promise<Prepared | InboundResult> {
  if (seen.message) return { outcome: 'duplicate' };
  const profile = await lookupOnce(lookups, connection, m, seen);
  const media = m.loadMedia ? await saveMedia(ctx, connection.companyId, m) : null;
  return { connection, m, importMode, profile, media, known: seen.contact };
}

async function storeMessage(ctx: AppContext, connection: Connection, m: InboundMessage, importMode: ImportMode | undefined, announce: Announce): Promise<InboundResult> {
  const known = !ignoredGroup(connection, m, importMode) && (await storeKnownFirst(ctx, [{ connection, m, importMode }]));
  if (known) return (await afterStored(ctx, known.prepared, known.stored, announce))[0]!;
  const p = await prepareMessage(ctx, connection, m, importMode);
  if ('outcome' in p) return p;
  // Tried above unless it had media to download.
  let stored = m.loadMedia ? (await storeKnown(ctx, [p]))?.[0] : undefined;
  stored ??= (await storeWithNewChats(ctx, [p], announce))?.[0];
  for (let attempt = 0; !stored; attempt++) {
    try {
      // A retry reads the contact again: the first attempt may have been the one to create it.
      const known = attempt === 0 ? p.known : undefined;
      stored = await ctx.db.transaction(async (tx) => {
        const [one] = await storeInTransaction(tx, [{ ...p, known }]);
        await recordStored(ctx, tx, [p], [one!]);
        return one!;
      });
    } catch (err) {
      // A concurrent reopen of the same ticket won: the whole message goes again (it finds that ticket).
      if (attempt > 0 || !isUniqueViolation(err)) throw err;
    }
  }
  const [result] = await afterStored(ctx, [p], [stored], announce);
  return result!;
}

/**
 * Several customer messages of one lane (in the lane's order) in ONE transaction of set-based
 * statements: one commit, one ticket read, one message insert and one ticket update for the
 * whole batch. All or nothing: on an error nothing is stored and the caller processes them one by one instead.
 * True when the raw inbound `events` they came from were marked processed with them (the known customers' statement).
 */
export async function storeMessages(ctx: AppContext, items: { connection: Connection; m: InboundMessage }[], announce: Announce, events: number[] = []): Promise<boolean> {
  const taken = items.filter(({ connection, m }) => !ignoredGroup(connection, m, undefined));
  if (taken.length === 0) return false;
  const known = await storeKnownFirst(ctx, taken, events);
  if (known) {
    await afterStored(ctx, known.prepared, known.stored, announce);
    return true;
  }
  const seen = await seenBeforeAll(ctx, taken);
  const prepared: Prepared[] = [];
  const lookups: Lookups = new Map();
  // The new chats' lookups (network round trips) run side by side; each message then awaits its chat's.
  for (const [i, { connection, m }] of taken.entries()) void lookupOnce(lookups, connection, m, seen[i]!);
  for (const [i, { connection, m }] of taken.entries()) {
    const p = await prepareSeen(ctx, connection, m, undefined, seen[i]!, lookups);
    if (!('outcome' in p)) prepared.push(p);
  }
  if (prepared.length === 0) return false;
  const stored =
    // Tried above unless media was to be downloaded.
    (taken.some(({ m }) => m.loadMedia) ? await storeKnown(ctx, prepared) : undefined) ??
    (await storeWithNewChats(ctx, prepared, announce)) ??
    (await storeInOwnTransaction(ctx, prepared));
  await afterStored(ctx, prepared, stored, announce);
  return false;
}

/** The messages in one transaction of their own (`storeInTransaction`), with what they will announce. */
function storeInOwnTransaction(ctx: AppContext, prepared: Prepared[]): Promise<Stored[]> {
  return ctx.db.transaction(async (tx) => {
    const out = await storeInTransaction(tx, prepared);
    await recordStored(ctx, tx, prepared, out);
    return out;
  });
}

/**
 * A batch with new chats (no contact: the read before said so): their contacts, tickets, log entries and
 * messages in ONE statement (`storeNewChats`), then the batch's other messages as every batch goes (the known
 * statement, else a transaction). Different chats, so each customer's order holds. Undefined, nothing
 * written, when a new chat's message is not for that statement or another writer created its contact
 * meanwhile: the whole batch then takes the transaction. Should the other messages fail after the new
 * chats' statement, those are announced before the error goes on (the lane's retry finds them stored).
 */
async function storeWithNewChats(ctx: AppContext, items: Prepared[], announce: Announce): Promise<Stored[] | undefined> {
  const isNew = items.map((o) => o.known === null);
  const fresh = items.filter((_, i) => isNew[i]);
  const values = newChatValues(items, isNew);
  if (!values) return undefined;
  for (const companyId of new Set(fresh.map((o) => o.connection.companyId))) {
    if ((await ctx.events.wantsInTransaction('contact.created', companyId)) || (await ctx.events.wantsInTransaction('message.created', companyId))) return undefined;
  }
  let created: Stored[];
  try {
    created = newChatsStored(fresh, await storeNewChats(ctx, values));
  } catch (err) {
    if (isUniqueViolation(err)) return undefined;
    throw err;
  }
  const rest = items.filter((_, i) => !isNew[i]);
  let others: Stored[] = [];
  try {
    if (rest.length) others = (await storeKnown(ctx, rest)) ?? (await storeInOwnTransaction(ctx, rest));
  } catch (err) {
    await afterStored(ctx, fresh, created, announce);
    throw err;
  }
  return isNew.map((n) => (n ? created : others).shift()!);
}

/**
 * The new chats' messages as `storeNewChats` takes them (a wid met earlier in the batch left out), or
 * undefined when one is not for it: an import, a group, a group member's, a quote of the batch, or a
 * chat whose messages describe it differently (the transaction would update the contact it created).
 */
function newChatValues(items: Prepared[], isNew: boolean[]): StatementMessage[] | undefined {
  if (!isNew.includes(true)) return undefined;
  const chats = new Map<string, StatementMessage>();
  const values: StatementMessage[] = [];
  for (const [i, o] of items.entries()) {
    if (!isNew[i]) continue;
    const { connection, m } = o;
    const earlier = items.slice(0, i);
    if (o.importMode || m.sender || m.chat.isGroup || (m.quotedWid && earlier.some((q) => q.connection.id === connection.id && q.m.wid === m.quotedWid))) return undefined;
    const value = statementMessage(o);
    const key = `${connection.companyId}:${connection.channel}:${m.chat.number}`;
    const chat = chats.get(key) ?? value;
    if (chat.name !== value.name || chat.pictureUrl !== value.pictureUrl || chat.remoteJid !== value.remoteJid) return undefined;
    chats.set(key, chat);
    if (!earlier.some((q) => q.connection.id === connection.id && q.m.wid === m.wid)) values.push(value);
  }
  return values;
}

/**
 * Each new chat's message as the transaction would have answered it: the first message of a chat created it,
 * the first of a ticket created that, and each message is announced with its ticket as it left it (from the
 * ticket as created, empty, and as every message left it).
 */
function newChatsStored(items: Storing[], rows: NewChatStored[]): Stored[] {
  const byKey = new Map(rows.map((r) => [`${r.message.whatsappId}:${r.message.wid}`, r]));
  const taken = items.map((o) => {
    const key = `${o.connection.id}:${o.m.wid}`;
    const row = byKey.get(key);
    byKey.delete(key);
    return row;
  });
  const firsts = new Map<number, TicketRow>();
  const touched = taken.flatMap((d, i): Touching[] => {
    if (!d) return [];
    const found = firsts.get(d.ticket.id) ?? {
      ...d.ticket,
      lastMessage: '',
      lastMessageFromMe: false,
      lastMessageAt: d.message.createdAt,
      inactiveMessageSentAt: null,
      unreadMessages: 0,
    };
    firsts.set(d.ticket.id, found);
    return [{ found, message: d.message, counts: !items[i]!.m.fromMe }];
  });
  const left = ticketsAsLeft(touched, new Map(rows.map((d) => [d.ticket.id, d.ticket])));
  const chats = new Set<number>();
  const tickets = new Set<number>();
  let n = 0;
  return taken.map((d): Stored => {
    if (!d) return 'duplicate';
    const chatCreated = !chats.has(d.chat.id);
    const created = !tickets.has(d.ticket.id);
    chats.add(d.chat.id);
    tickets.add(d.ticket.id);
    const ticket = left[n]!;
    const found = touched[n++]!.found;
    return { message: d.message, sender: d.chat, found: { ticket: found, created, reopened: false }, ticket, chatCreated, chat: d.chat, includes: d.includes };
  });
}

/** Pictures, then ONE socket announcement for the stored messages (their includes read in one statement), then the behaviours. */
async function afterStored(ctx: AppContext, prepared: Storing[], stored: Stored[], announce: Announce): Promise<InboundResult[]> {
  const kept: { p: Storing; s: Exclude<Stored, 'duplicate'> }[] = [];
  const pictured = new Set<number>();
  const results = stored.map((s, i): InboundResult => {
    if (s === 'duplicate') return { outcome: 'duplicate' };
    const p = prepared[i]!;
    // Once per contact of the batch: each message of a new contact would queue its own job.
    if (!pictured.has(s.chat.id)) requestContactPicture(ctx, p.connection, s.chat, p.profile?.pictureUrl || p.m.chat.pictureUrl);
    pictured.add(s.chat.id);
    if (!p.importMode) kept.push({ p, s });
    return { outcome: 'stored', messageId: s.message.id, ticketId: s.found.ticket.id, ticketCreated: s.found.created };
  });
  if (kept.length === 0) return results;

  await announce(async () => {
    const behaviours: InboundContext[] = [];
    const presented = await presentStoredAll(
      ctx,
      kept.map(({ p, s }) => ({ ticket: s.ticket, message: s.message, chat: s.chat, sender: s.sender, connection: p.connection, includes: s.includes })),
    );
    for (const [i, { p, s }] of kept.entries()) {
      const shown = presented[i];
      if (s.chatCreated) await ctx.events.publish(contactCreated(p.connection.companyId, s.chat, shown?.hidesNumbers));
      if (shown) await ctx.events.publish({ type: 'ticket.updated', ticket: shown.ticket, hidesNumbers: shown.hidesNumbers }, { type: 'message.created', ...shown });
      if (!p.m.fromMe) behaviours.push({ connection: p.connection, found: s.found, ticket: s.ticket, body: p.m.body, messageId: s.message.id });
    }
    ctx.background.run('connection behaviours', () => runBatchBehaviours(ctx, behaviours));
  });
  return results;
}

/** What stored messages will announce, handed to the bus in their transaction at once (the webhook outbox); an import announces nothing. */
async function recordStored(ctx: AppContext, tx: Tx, prepared: Prepared[], stored: Stored[]): Promise<void> {
  const kept = stored.filter((s, i): s is Exclude<Stored, 'duplicate'> => s !== 'duplicate' && !prepared[i]!.importMode);
  await ctx.events.record(
    tx,
    { type: 'message.created', messageIds: kept.map((s) => s.message.id) },
    { type: 'contact.created', contactIds: kept.filter((s) => s.chatCreated).map((s) => s.chat.id) },
  );
}

/** A stored message with its ticket as the message left it (the ticket's row after it, as if the batch's messages were stored one by one). */
type Stored =
  | 'duplicate'
  | { message: MessageRow; sender: ContactRow; found: FoundTicket; ticket: TicketRow; chatCreated: boolean; chat: ContactRow; includes?: Includes };

/** The chat's contact as this message shows it (its profile looked up, or the channel's). */
function chatInput(o: Storing): ContactInput {
  const { connection, m } = o;
  return {
    companyId: connection.companyId,
    channel: connection.channel,
    number: m.chat.number,
    name: o.profile?.name || m.chat.name,
    remoteJid: m.chat.remoteJid,
    isGroup: m.chat.isGroup,
    profilePicUrl: o.profile?.pictureUrl || m.chat.pictureUrl,
  };
}

/** A message as the one-statement paths take it (`storeKnownMessages`, `storeNewChats`): its chat as the message describes it. */
function statementMessage(o: Storing): StatementMessage {
  const { connection, m } = o;
  const input = chatInput(o);
  return {
    companyId: connection.companyId,
    channel: connection.channel,
    number: m.chat.number,
    name: input.name.trim() || input.number,
    pictureUrl: input.profilePicUrl ?? null,
    remoteJid: input.remoteJid,
    whatsappId: connection.id,
    wid: m.wid,
    body: m.body,
    fromMe: m.fromMe,
    mediaType: m.mediaType,
    mediaUrl: o.media,
    isForwarded: m.isForwarded ?? false,
    quotedWid: m.quotedWid ?? null,
    data: m.raw,
    at: new Date(),
  };
}

/**
 * The common case first, with no read before it: the messages stored by `storeKnownMessages`, whose
 * statement finds each chat's contact and checks it unchanged itself. Undefined (nothing written)
 * when a message has media to download (a redelivery must not download it again: the read before
 * the transaction path stops it) or is not for that statement, or when a contact is new or changed
 * or a ticket must be created or reopened: the caller then takes that path.
 */
async function storeKnownFirst(ctx: AppContext, items: { connection: Connection; m: InboundMessage; importMode?: ImportMode }[], events?: number[]) {
  if (items.some(({ m }) => m.loadMedia)) return undefined;
  const prepared: Storing[] = items.map((o) => ({ ...o, profile: null, media: null }));
  const stored = await storeKnown(ctx, prepared, events);
  return stored && { prepared, stored };
}

/**
 * Customer or page messages of known, unchanged contacts (no group member), not an import, no
 * quote of the same batch, for companies whose webhooks do not record messages, in one statement
 * (`storeKnownMessages`). Undefined when that does not apply (a contact already read — `known` —
 * is checked here, one not read yet by the statement), or when a ticket must be created or
 * reopened: the caller then stores them in a transaction.
 */
async function storeKnown(ctx: AppContext, items: Storing[], events?: number[]): Promise<Stored[] | undefined> {
  const plain = items.every((o, i) => {
    const input = chatInput(o);
    return (
      o.known !== null &&
      !o.importMode &&
      !o.m.sender &&
      !(o.known && isStale(o.known, input, input.name.trim() || input.number)) &&
      !(o.m.quotedWid && items.some((q, j) => j < i && q.connection.id === o.connection.id && q.m.wid === o.m.quotedWid))
    );
  });
  if (!plain) return undefined;
  for (const companyId of new Set(items.map((o) => o.connection.companyId))) if (await ctx.events.wantsInTransaction('message.created', companyId)) return undefined;
  const done = await storeKnownMessages(
    ctx,
    items.map(statementMessage),
    events,
  );
  if (!done) return undefined;
  const byKey = new Map(done.map((d) => [`${d.message.whatsappId}:${d.message.wid}`, d]));
  const taken = items.map((o) => {
    const d = byKey.get(`${o.connection.id}:${o.m.wid}`);
    byKey.delete(`${o.connection.id}:${o.m.wid}`);
    return d;
  });
  const touched = taken.flatMap((d, i) => (d ? [{ found: { ...d.ticket, ...d.before }, message: d.message, counts: !items[i]!.m.fromMe }] : []));
  const left = ticketsAsLeft(touched, new Map(done.map((d) => [d.ticket.id, d.ticket])));
  let n = 0;
  return taken.map((d): Stored => {
    if (!d) return 'duplicate';
    const found = touched[n]!.found;
    return { message: d.message, sender: d.chat, found: { ticket: found, created: false, reopened: false }, ticket: left[n++]!, chatCreated: false, chat: d.chat, includes: d.includes };
  });
}

/** Whether the message was stored already, and the chat's contact row if it exists (the transaction then need not read it). */
interface Seen {
  message: boolean;
  contact: ContactRow | null;
}

/**
 * ONE read for a whole batch (or one message): which messages were stored already, and each
 * chat's contact row if it exists (the transaction then need not read it). Matched on each
 * column's list, then on the exact pair / triple here: both parts use the unique keys' indexes.
 */
async function seenBeforeAll(ctx: AppContext, items: { connection: Connection; m: InboundMessage }[]): Promise<Seen[]> {
  if (items.length === 0) return [];
  const uniq = <T>(values: T[]) => [...new Set(values)];
  const stored = sql<string[] | null>`(SELECT array_agg(${messages.whatsappId} || ':' || ${messages.wid}) FROM ${messages}
    WHERE ${and(inArray(messages.whatsappId, uniq(items.map((i) => i.connection.id))), inArray(messages.wid, uniq(items.map((i) => i.m.wid))))})`;
  const rows = await ctx.db
    .select({ stored, contact: contacts })
    .from(sql`(SELECT 1) AS one`)
    .leftJoin(
      contacts,
      and(
        inArray(contacts.companyId, uniq(items.map((i) => i.connection.companyId))),
        inArray(contacts.channel, uniq(items.map((i) => i.connection.channel))),
        inArray(contacts.number, uniq(items.map((i) => i.m.chat.number))),
      ),
    );
  const storedKeys = new Set(rows[0]?.stored ?? []);
  const byKey = new Map(rows.flatMap(({ contact: c }) => (c ? [[`${c.companyId}:${c.channel}:${c.number}`, c] as const] : [])));
  return items.map(({ connection, m }) => ({
    message: storedKeys.has(`${connection.id}:${m.wid}`),
    contact: byKey.get(`${connection.companyId}:${connection.channel}:${m.chat.number}`) ?? null,
  }));
}

type Storing = Omit<Prepared, 'known'> & { known?: ContactRow | null };

/**
 * Contact, ticket, log, message and the ticket's preview and unread counter of each message, in
 * the caller's transaction, set-based: one read of the live tickets, one message insert (in the
 * given order, so ids follow it), one update of the touched tickets. Contacts are written only
 * when new or changed, and tickets created or reopened one at a time (the rare case).
 */
async function storeInTransaction(tx: Tx, items: Storing[]): Promise<Stored[]> {
  const parties = await upsertParties(tx, items);
  const found = await findTickets(tx, items, parties);

  // A message delivered twice in one batch is stored once, at its first place.
  const first = new Map<string, number>();
  items.forEach((o, i) => first.set(`${o.connection.id}:${o.m.wid}`, first.get(`${o.connection.id}:${o.m.wid}`) ?? i));
  const inserting = items.flatMap((o, i) => (first.get(`${o.connection.id}:${o.m.wid}`) === i ? [i] : []));
  const rows = await insertMessages(
    tx,
    inserting.map((i) => ({ values: messageValues(items[i]!, found[i]!.ticket, parties[i]!.sender), quotedWid: items[i]!.m.quotedWid })),
  );
  const byKey = new Map(rows.map((r) => [`${r.whatsappId}:${r.wid}`, r]));
  const inserted = items.map((o, i) => (first.get(`${o.connection.id}:${o.m.wid}`) === i ? byKey.get(`${o.connection.id}:${o.m.wid}`) : undefined));

  const tickets = await touchAll(
    tx,
    items.flatMap((o, i) => {
      const message = inserted[i];
      return message ? [{ found: found[i]!.ticket, message, counts: !o.m.fromMe && !o.importMode }] : [];
    }),
  );
  let n = 0;
  return items.map((_, i): Stored => {
    const message = inserted[i];
    if (!message) return 'duplicate';
    return { message, sender: parties[i]!.sender, found: found[i]!, ticket: tickets[n++]!, chatCreated: parties[i]!.chatCreated, chat: parties[i]!.chat };
  });
}

/** Each message's chat and sender contacts, in order: a chat met earlier in the batch is not read again. */
async function upsertParties(tx: Tx, items: Storing[]): Promise<{ chat: ContactRow; chatCreated: boolean; sender: ContactRow }[]> {
  const chats = new Map<string, ContactRow>();
  const out: { chat: ContactRow; chatCreated: boolean; sender: ContactRow }[] = [];
  for (const o of items) {
    const { connection, m } = o;
    const companyId = connection.companyId;
    const key = `${companyId}:${connection.channel}:${m.chat.number}`;
    const earlier = chats.get(key);
    const { contact: chat, created: chatCreated } = await upsertContact(tx, chatInput(o), earlier ?? o.known);
    chats.set(key, chat);
    const sender = m.sender
      ? (
          await upsertContact(tx, {
            companyId,
            channel: connection.channel,
            number: m.sender.number,
            name: m.sender.name,
            remoteJid: m.sender.remoteJid,
            isGroup: false,
          })
        ).contact
      : chat;
    out.push({ chat, chatCreated, sender });
  }
  return out;
}

/** Each message's ticket: the live ones in one read; a missing one found, reopened or created (and logged) at its first message. */
async function findTickets(tx: Tx, items: Storing[], parties: { chat: ContactRow }[]): Promise<FoundTicket[]> {
  const pairs = items.map((o, i) => ({ contactId: parties[i]!.chat.id, whatsappId: o.connection.id }));
  const live = await liveTicketsOf(tx, pairs);
  const out: FoundTicket[] = [];
  for (const [i, o] of items.entries()) {
    const key = ticketPairKey(pairs[i]!);
    const ticket = live.get(key);
    if (ticket) {
      out.push({ ticket, created: false, reopened: false });
      continue;
    }
    const { connection, m, importMode } = o;
    const found = await findOrCreateTicket(tx, {
      companyId: connection.companyId,
      contactId: pairs[i]!.contactId,
      whatsappId: connection.id,
      channel: connection.channel,
      isGroup: m.chat.isGroup,
      status: m.chat.isGroup && connection.groupAsTicket === 'disabled' ? 'group' : 'pending',
      queueId: async () => (importMode ? importMode.queueId : soleQueueId(tx, connection.id)),
      reopenWithinMinutes: importMode ? 0 : connection.timeCreateNewTicket,
      importedAt: importMode?.importedAt,
      firstMessageAt: importMode ? m.at : new Date(),
    });
    if (found.created || found.reopened) {
      await writeTicketLogs(tx, [{ companyId: connection.companyId, ticketId: found.ticket.id, type: found.created ? 'create' : 'reopen', queueId: found.ticket.queueId }]);
    }
    live.set(key, found.ticket);
    out.push(found);
  }
  return out;
}

function messageValues(o: Storing, ticket: TicketRow, sender: ContactRow): MessageValues {
  const { connection, m, importMode } = o;
  const at = importMode ? m.at : new Date();
  const quoted = m.quotedWid
    ? sql`(${sql`select ${messages.id} from ${messages} where ${messages.whatsappId} = ${connection.id} and ${messages.wid} = ${m.quotedWid}`})`
    : null;
  return {
    companyId: connection.companyId,
    ticketId: ticket.id,
    contactId: m.fromMe ? null : sender.id,
    whatsappId: connection.id,
    queueId: ticket.queueId,
    wid: m.wid,
    body: m.body,
    fromMe: m.fromMe,
    read: m.fromMe || !!importMode,
    // Sent from another device (or the page inbox): already on the channel.
    ack: m.fromMe ? 1 : 0,
    mediaType: m.mediaType,
    mediaUrl: o.media,
    isForwarded: m.isForwarded ?? false,
    quotedMsgId: quoted,
    data: m.raw as object,
    createdAt: at,
    updatedAt: at,
  };
}

/** A message row to insert (its quote a subquery). */
type MessageValues = PgInsertValue<typeof messages>;

/**
 * The messages in one INSERT per run of rows (ids follow the given order); a row quoting a message
 * of its own run starts a new one, so the quote's subquery sees the quoted row. A redelivery inserts nothing.
 */
async function insertMessages(tx: Tx, list: { values: MessageValues; quotedWid?: string | null }[]): Promise<MessageRow[]> {
  const out: MessageRow[] = [];
  let run: MessageValues[] = [];
  const flush = async () => {
    if (run.length) out.push(...(await tx.insert(messages).values(run).onConflictDoNothing({ target: [messages.whatsappId, messages.wid] }).returning()));
    run = [];
  };
  for (const { values, quotedWid } of list) {
    if (quotedWid && run.some((r) => r.whatsappId === values.whatsappId && r.wid === quotedWid)) await flush();
    run.push(values);
  }
  await flush();
  return out;
}

interface Touching {
  /** The ticket as found before the batch. */
  found: TicketRow;
  message: MessageRow;
  /** Counted as unread. */
  counts: boolean;
}

/**
 * The tickets' previews and unread counters in one UPDATE (one touch per ticket); answers each
 * message's ticket as it stood right after that message, as storing them one by one would have.
 */
async function touchAll(tx: Tx, list: Touching[]): Promise<TicketRow[]> {
  const byTicket = new Map<number, Touching[]>();
  for (const e of list) byTicket.set(e.found.id, [...(byTicket.get(e.found.id) ?? []), e]);
  const touches = [...byTicket.values()].map((es): TicketTouch => {
    // The newest message is the preview (the later one on a tie), as `lastMessageAt <= at` one by one gives.
    const newest = es.reduce((a, b) => (b.message.createdAt >= a.message.createdAt ? b : a)).message;
    return {
      ticketId: es[0]!.found.id,
      body: newest.body,
      fromMe: newest.fromMe,
      at: newest.createdAt,
      unread: es.filter((e) => e.counts).length,
      customerSpoke: es.some((e) => !e.message.fromMe),
    };
  });
  return ticketsAsLeft(list, new Map((await touchTicketsAfterMessages(tx, touches)).map((row) => [row.id, row])));
}

/** Each message's ticket as it stood right after that message, from the rows before (`found`) and after (`final`) the one touch of each ticket. */
function ticketsAsLeft(list: Touching[], final: Map<number, TicketRow>): TicketRow[] {
  const byTicket = new Map<number, Touching[]>();
  for (const e of list) byTicket.set(e.found.id, [...(byTicket.get(e.found.id) ?? []), e]);
  const running = new Map<number, { row: TicketRow; left: number }>();
  for (const [id, es] of byTicket) running.set(id, { row: es[0]!.found, left: es.filter((e) => e.counts).length });
  return list.map(({ found, message, counts }) => {
    const end = final.get(found.id);
    if (!end) throw new Error('a touched ticket is gone');
    const r = running.get(found.id)!;
    const before = r.row;
    if (counts) r.left -= 1;
    const newer = before.lastMessageAt <= message.createdAt;
    r.row = {
      ...end,
      lastMessage: newer ? message.body : before.lastMessage,
      lastMessageFromMe: newer ? message.fromMe : before.lastMessageFromMe,
      lastMessageAt: newer ? message.createdAt : before.lastMessageAt,
      unreadMessages: end.unreadMessages - r.left,
      inactiveMessageSentAt: message.fromMe ? before.inactiveMessageSentAt : null,
    };
    return r.row;
  });
}

/**
 * The `create` of a contact a message created, presented from its row: created just now, it has no tags
 * and no custom fields to read. The LGPD flag came with the message's ticket (none: realtime/ reads it).
 */
function contactCreated(companyId: number, chat: ContactRow, hidesNumbers: boolean | undefined): DomainEvent {
  return { type: 'contact.saved', companyId, action: 'create', contact: presentContact(chat), hidesNumbers };
}

/** A connection with exactly one queue puts its tickets there (queue choice menus come later). */
async function soleQueueId(tx: Tx, whatsappId: number): Promise<number | null> {
  const rows = await tx.select({ queueId: whatsappQueues.queueId }).from(whatsappQueues).where(eq(whatsappQueues.whatsappId, whatsappId)).limit(2);
  return rows.length === 1 ? rows[0]!.queueId : null;
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
  announce: Announce,
): Promise<InboundResult> {
  const [row] = await ctx.db
    .update(messages)
    .set(set)
    .where(and(eq(messages.whatsappId, connection.id), eq(messages.wid, wid)))
    .returning({ id: messages.id, ticketId: messages.ticketId, fromMe: messages.fromMe });
  if (!row) return { outcome: 'ignored' };
  if (set.body !== undefined) await ctx.db.update(tickets).set({ lastMessage: set.body }).where(eq(tickets.id, row.ticketId));
  const previewCleared = set.isDeleted && !row.fromMe && (await clearDeletedPreview(ctx, row));
  await announce(async () => {
    await emitMessageUpdate(ctx, row.id);
    if (previewCleared) await emitTicketUpdate(ctx, row.ticketId);
  });
  return { outcome: 'updated' };
}

/**
 * Under `lgpdDeleteMessage` what the contact deleted is not answered (messages presenter), so
 * the ticket's preview must not keep it either: blanked when it was the ticket's last message.
 */
async function clearDeletedPreview(ctx: AppContext, row: { id: number; ticketId: number }): Promise<boolean> {
  const hides = ctx.db
    .select({ one: sql`1` })
    .from(companySettings)
    .where(and(eq(companySettings.companyId, tickets.companyId), eq(companySettings.lgpdDeleteMessage, 'enabled')));
  const newer = ctx.db
    .select({ one: sql`1` })
    .from(messages)
    .where(and(eq(messages.ticketId, row.ticketId), gt(messages.id, row.id)));
  const cleared = await ctx.db
    .update(tickets)
    .set({ lastMessage: '' })
    .where(and(eq(tickets.id, row.ticketId), exists(hides), notExists(newer)))
    .returning({ id: tickets.id });
  return cleared.length > 0;
}

/** Acks only move forward; a channel error marks the message failed. */
async function applyAck(ctx: AppContext, connection: Connection, e: { wid: string; ack: number; error?: string }, announce: Announce): Promise<InboundResult> {
  const where = and(eq(messages.whatsappId, connection.id), eq(messages.wid, e.wid), eq(messages.fromMe, true));
  const rows = e.error
    ? await ctx.db.update(messages).set({ sendStatus: 'failed', lastError: e.error, nextAttemptAt: null }).where(where).returning({ id: messages.id })
    : await ctx.db
        .update(messages)
        .set({ ack: e.ack, sendStatus: 'sent' })
        .where(and(where, lt(messages.ack, e.ack)))
        .returning({ id: messages.id });
  await announce(async () => {
    for (const r of rows) await emitMessageUpdate(ctx, r.id);
  });
  return { outcome: rows.length ? 'updated' : 'ignored' };
}

async function applyWatermark(ctx: AppContext, connection: Connection, e: { chatNumber: string; upTo: Date; ack: number }, announce: Announce): Promise<InboundResult> {
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
  await announce(async () => {
    for (const r of rows) await emitMessageUpdate(ctx, r.id);
  });
  return { outcome: rows.length ? 'updated' : 'ignored' };
}
