import { normalizeNumber, type ExternalSendFields, type ExternalSendResponse } from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import { users, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { emitContact } from '../contacts/service.js';
import { isStale, upsertContact } from '../contacts/queries.js';
import { presentContact } from '../contacts/presenter.js';
import { closeTicket, transferTicket } from '../conversations/commands/tickets.js';
import { findOrCreateTicket } from '../conversations/commands/ticket-rows.js';
import { insertNewContactTicket, type FirstMessageValues } from '../conversations/commands/new-contact-ticket.js';
import { announceQueued, firstSendLease, queueOutgoing } from '../conversations/outbound.js';
import { quotedInTicket } from '../messages/service.js';
import { mediaTypeOf, type MessageForm } from '../messages/uploads.js';
import { assertCompanyQueue } from '../tickets/rules.js';
import type { ContactRow } from '../contacts/presenter.js';
import type { MessageRow } from '../messages/presenter.js';
import type { TicketRow } from '../tickets/presenter.js';
import type { Includes } from '../conversations/present-stored.js';
import { contactAndLiveTicket } from './queries.js';
import type { TokenCache } from './token-cache.js';

type Connection = typeof whatsapps.$inferSelect;

/** The connection a `Bearer <token>` names: no header → 401, an unknown token → 403 (spec 3 §7), a plan without the API → 403. */
export async function connectionOfToken(tokens: TokenCache, header: string | undefined): Promise<Connection> {
  if (!header) throw new AppError('ERR_SESSION_EXPIRED', 401);
  const token = /^bearer (\S+)$/i.exec(header)?.[1];
  const entry = token ? await tokens.get(token) : undefined;
  if (!entry) throw new AppError('ERR_SESSION_EXPIRED', 403, 'unknown token');
  if (!entry.planAllows) throw new AppError('ERR_PLAN_FEATURE_DISABLED', 403, "the company's plan does not include useExternalApi");
  return entry.connection;
}

/** WhatsApp numbers are international digits (8–15, E.164); a Meta contact is its page-scoped id. */
function contactNumber(connection: Connection, typed: string): string {
  const number = normalizeNumber(typed);
  const valid = number && (connection.channel !== 'whatsapp' || (number.length >= 8 && number.length <= 15));
  if (!valid) throw new AppError('ERR_WAPP_INVALID_CONTACT', 400, 'number: not a valid number for this connection');
  return number;
}

/** The user and queue the request names, both of the token's company (404 otherwise, as if they did not exist). */
async function assertCompanyRefs(ctx: AppContext, companyId: number, fields: ExternalSendFields): Promise<string | undefined> {
  if (fields.queueId) await assertCompanyQueue(ctx.db, companyId, fields.queueId);
  if (!fields.userId) return undefined;
  const [user] = await ctx.db
    .select({ name: users.name })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, fields.userId)));
  if (!user) throw new AppError('ERR_NO_USER_FOUND', 404);
  return user.name;
}

/**
 * The contact (created on first use) and its live ticket on this connection, held by the named
 * user and queue; `current` when the returned row is as stored (no transfer moved it since).
 * `text`: the call's one message, stored with a contact and ticket the call creates when nothing records
 * its facts (`message`, already written: the ticket is as that message left it).
 */
async function ticketFor(
  ctx: AppContext,
  connection: Connection,
  number: string,
  fields: ExternalSendFields,
  text?: string,
): Promise<{ ticket: TicketRow; contact: ContactRow; current: boolean; includes?: Includes; message?: MessageRow }> {
  const known = await contactAndLiveTicket(ctx.db, { companyId: connection.companyId, channel: connection.channel, number, whatsappId: connection.id });
  const input = {
    companyId: connection.companyId,
    channel: connection.channel,
    number,
    name: number,
    remoteJid: connection.channel === 'whatsapp' ? `${number}@s.whatsapp.net` : number,
    isGroup: false,
  };
  const status = fields.userId ? 'open' : 'pending';
  // A new number whose contact no webhook records: contact, ticket and what presenting them needs in one statement (with the message when no webhook records it either).
  const first =
    !known.contact && !(await ctx.events.wantsInTransaction('contact.created', connection.companyId))
      ? await insertNewContactTicket(
          ctx,
          input,
          { whatsappId: connection.id, status, queueId: fields.queueId ?? null, userId: fields.userId ?? null, firstMessageAt: new Date() },
          text !== undefined && !(await ctx.events.wantsInTransaction('message.created', connection.companyId)) ? firstMessage(ctx, connection, text) : undefined,
        )
      : undefined;
  // A known contact as current as the input writes nothing (its BEGIN and COMMIT were two round trips).
  const { contact, created } =
    first ??
    (known.contact && !isStale(known.contact, input, input.name)
      ? { contact: known.contact, created: false }
      : await ctx.db.transaction(async (tx) => {
          const saved = await upsertContact(tx, input, known.contact);
          if (saved.created) await ctx.events.record(tx, { type: 'contact.created', contactIds: [saved.contact.id] });
          return saved;
        }));
  // A contact this call created has no extra info or tags yet: presented from its row, not read again (nor the LGPD flag, read with its ticket).
  if (created) await emitContact(ctx, connection.companyId, 'create', presentContact(contact), first?.ticket && first.ticket.includes.hides_numbers === true);
  if (!contact.active) throw new AppError('ERR_CONTACT_BLOCKED', 400);
  if (first?.ticket) return { ticket: first.ticket.row, contact, current: true, includes: first.ticket.includes, message: first.message };
  const found =
    known.ticket && known.contact?.id === contact.id
      ? { ticket: known.ticket, created: false }
      : await findOrCreateTicket(ctx.db, {
          companyId: connection.companyId,
          contactId: contact.id,
          whatsappId: connection.id,
          channel: connection.channel,
          isGroup: false,
          status,
          queueId: async () => fields.queueId ?? null,
          reopenWithinMinutes: 0,
          ownerId: fields.userId ?? undefined,
          firstMessageAt: new Date(),
          newContact: created,
        });
  const { ticket } = found;
  // A conversation already under way moves to the named user (in the named queue, else its own).
  const queueId = fields.queueId ?? ticket.queueId;
  if (!found.created && fields.userId && queueId && (ticket.userId !== fields.userId || ticket.queueId !== queueId)) {
    await transferTicket(ctx, ticket, { by: fields.userId, userId: fields.userId, queueId, status: 'open', closeOnTransfer: false });
    return { ticket, contact, current: false };
  }
  return { ticket, contact, current: true, includes: found.created ? undefined : known.includes };
}

/** A text's outbox fields, for the statement that stores it with its new contact and ticket. */
function firstMessage(ctx: AppContext, connection: Connection, body: string): FirstMessageValues {
  const wid = ctx.channels.adapterFor(connection.channel).newMessageId?.() ?? null;
  return { wid, body, mediaType: 'chat', mediaUrl: null, data: null, nextAttemptAt: firstSendLease() };
}

/**
 * `POST /api/messages/send`: finds or creates the contact and its ticket on the token's
 * connection, queues the text (or one message per file, the text as the first caption)
 * on that connection's outbox, and closes the ticket when asked.
 */
export async function sendExternal(ctx: AppContext, connection: Connection, fields: ExternalSendFields, files: MessageForm['files'] = []): Promise<ExternalSendResponse> {
  const number = contactNumber(connection, fields.number);
  const userName = await assertCompanyRefs(ctx, connection.companyId, fields);
  const typed = files.map((file) => ({ file, mediaType: mediaTypeOf(file) }));
  const text = fields.body?.trim() ? fields.body : '';
  if (!text && typed.length === 0) throw new AppError('ERR_EMPTY_MESSAGE', 400);
  const body = text && fields.sendSignature && userName ? `*${userName}:*\n${text}` : text;

  // One text quoting nothing may be stored with a new contact's ticket (a quote needs a known ticket).
  const single = typed.length === 0 && !fields.quotedMsg ? body : undefined;
  const { ticket, contact, current, includes, message } = await ticketFor(ctx, connection, number, fields, single);
  if (message) {
    await announceQueued(ctx, message, ticket, { connection, chat: contact, includes });
    if (fields.closeTicket) await closeTicket(ctx, { companyId: ticket.companyId, ticketId: ticket.id, userId: fields.userId ?? null });
    return { status: 'SUCCESS', messageId: message.id, ticketId: ticket.id };
  }
  const quotedMsgId = fields.quotedMsg ? await quotedInTicket(ctx, ticket, fields.quotedMsg.id) : null;
  // The first message may reuse the row just read; after it, touchTicketAfterMessage has changed the ticket.
  const target = current ? { ticket, connection, chat: contact, includes } : undefined;
  const base = { companyId: ticket.companyId, ticketId: ticket.id, quotedMsgId };
  let last: number | undefined;
  if (typed.length === 0) last = (await queueOutgoing(ctx, { ...base, body, target })).id;
  for (const [i, { file, mediaType }] of typed.entries()) {
    const saved = await ctx.storage.save(ticket.companyId, file.data, file.mimetype, file.originalName);
    const media = { fileName: saved.fileName, mimetype: saved.mimetype, mediaType };
    last = (await queueOutgoing(ctx, { ...base, body: i === 0 ? body : '', media, target: i === 0 ? target : undefined })).id;
  }
  if (fields.closeTicket) await closeTicket(ctx, { companyId: ticket.companyId, ticketId: ticket.id, userId: fields.userId ?? null });
  return { status: 'SUCCESS', messageId: last!, ticketId: ticket.id };
}
