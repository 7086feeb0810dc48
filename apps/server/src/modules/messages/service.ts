import {
  MESSAGES_PER_PAGE,
  sendMediaFields,
  type ListMessagesResponse,
  type Message,
  type sendMessageBody,
} from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { contacts, messages, queues, tickets, users, whatsapps } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { queueOutgoing, type OutgoingInput } from '../conversations/outbound.js';
import { markTicketRead } from '../conversations/commands/messages.js';
import { contactMaskFor } from '../contacts/lgpd.js';
import { ticketForViewer } from '../tickets/presenter.js';
import { loadTicket } from '../tickets/queries.js';
import type { TicketRow } from '../tickets/presenter.js';
import { loadViewer } from '../tickets/visibility.js';
import { assertComposerOpen, visibleTicket } from './access.js';
import { messageForViewer } from './presenter.js';
import { listTicketMessages, loadMessage } from './queries.js';
import { mediaTypeOf, type MessageForm } from './uploads.js';
import { fillVariables, type VariableValues } from './variables.js';

/**
 * `GET /messages/{ticketId}`: page N holds the 20 messages before those of page N-1,
 * oldest first. Opening page 1 reads the conversation: unread count to 0, messages read.
 */
export async function listMessages(ctx: AppContext, auth: AuthUser, ref: string, pageNumber: number): Promise<ListMessagesResponse> {
  const viewer = await loadViewer(ctx.db, auth);
  const row = await visibleTicket(ctx.db, viewer, ref);
  if (pageNumber === 1) await markTicketRead(ctx, row, auth.id);
  const offset = (pageNumber - 1) * MESSAGES_PER_PAGE;
  const page = await listTicketMessages(ctx.db, ctx.storage, ctx.config.apiUrl, row.id, { limit: MESSAGES_PER_PAGE, offset });
  const ticket = await loadTicket(ctx.db, row.id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  // LGPD: the ticket's contact (and its name on the messages, which may be the number) as the caller may see it.
  const mask = await contactMaskFor(ctx.db, auth);
  const contact = mask(ticket.contact);
  return {
    messages: page.messages.map((m) => messageForViewer(m, contact)),
    ticket: ticketForViewer(ticket, mask),
    count: page.count,
    hasMore: offset + page.messages.length < page.count,
  };
}

const isBlank = (text: string | null | undefined) => !text || text.trim() === '';

/** `POST /messages/{ticketId}` as JSON: a text, a private note or a contact card. Answers the stored message. */
export async function sendMessage(ctx: AppContext, auth: AuthUser, ref: string, input: z.output<typeof sendMessageBody>): Promise<Message> {
  const ticket = await writableTicket(ctx, auth, ref);
  const quotedMsgId = input.quotedMsg ? await quotedInTicket(ctx, ticket, input.quotedMsg.id) : null;
  const base = { companyId: ticket.companyId, ticketId: ticket.id, isPrivate: input.isPrivate, quotedMsgId };
  if (input.vCard) return outgoing(ctx, { ...base, body: '', contactCard: input.vCard });
  if (isBlank(input.body)) throw new AppError('ERR_EMPTY_MESSAGE', 400);
  const body = input.isPrivate ? input.body! : fillVariables(input.body!, await variablesOf(ctx, ticket, auth.id));
  return outgoing(ctx, { ...base, body });
}

/** `POST /messages/{ticketId}` as multipart: one message per file, each with its own caption (`body` in file order). */
export async function sendMedia(ctx: AppContext, auth: AuthUser, ref: string, readForm: () => Promise<MessageForm>): Promise<Message> {
  // The ticket is checked before the upload is read.
  const ticket = await writableTicket(ctx, auth, ref);
  const form = await readForm();
  const fields = sendMediaFields.parse({ isPrivate: form.fields.isPrivate?.[0], body: form.fields.body });
  if (form.files.length === 0) throw new AppError('ERR_EMPTY_MESSAGE', 400);
  // Every file is checked before the first is stored: a refused file sends nothing.
  const typed = form.files.map((file) => ({ file, mediaType: mediaTypeOf(file) }));
  const variables = fields.isPrivate ? undefined : await variablesOf(ctx, ticket, auth.id);
  let last: Message | undefined;
  for (const [i, { file, mediaType }] of typed.entries()) {
    const saved = await ctx.storage.save(ticket.companyId, file.data, file.mimetype, file.originalName);
    const caption = fields.body[i] ?? '';
    last = await outgoing(ctx, {
      companyId: ticket.companyId,
      ticketId: ticket.id,
      isPrivate: fields.isPrivate,
      body: variables ? fillVariables(caption, variables) : caption,
      media: { fileName: saved.fileName, mimetype: saved.mimetype, mediaType },
    });
  }
  return last!;
}

async function writableTicket(ctx: AppContext, auth: AuthUser, ref: string): Promise<TicketRow> {
  const ticket = await visibleTicket(ctx.db, await loadViewer(ctx.db, auth), ref);
  assertComposerOpen(ticket);
  return ticket;
}

async function outgoing(ctx: AppContext, input: OutgoingInput): Promise<Message> {
  const row = await queueOutgoing(ctx, input);
  const message = await loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, row.id);
  if (!message) throw new AppError('ERR_CREATING_MESSAGE', 500);
  return message;
}

/** A reply quotes a message of the same conversation only. */
export async function quotedInTicket(ctx: AppContext, ticket: Pick<TicketRow, 'id'>, id: number): Promise<number> {
  const [quoted] = await ctx.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.ticketId, ticket.id)));
  if (!quoted) throw new AppError('ERR_VALIDATION', 400, 'quotedMsg is not a message of this ticket');
  return quoted.id;
}

/** The variables of a message written by `senderId` ({{userName}} is the sender). */
export async function variablesOf(ctx: AppContext, ticket: TicketRow, senderId: number): Promise<VariableValues> {
  const [row] = await ctx.db
    .select({ contactName: contacts.name, queueName: queues.name, connectionName: whatsapps.name })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .where(eq(tickets.id, ticket.id));
  const [sender] = await ctx.db.select({ name: users.name }).from(users).where(eq(users.id, senderId));
  return { contactName: row?.contactName ?? '', queueName: row?.queueName, connectionName: row?.connectionName, userName: sender?.name, ticketId: ticket.id };
}
