import type { forwardMessageBody, Message } from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { contacts, users, whatsapps } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { queueOutgoing, type OutgoingInput } from '../conversations/outbound.js';
import { mimetypeOfStored } from '../../storage/media.js';
import { findOrCreateTicket } from '../conversations/commands/ticket-rows.js';
import { loadViewer } from '../tickets/visibility.js';
import { visibleMessage } from './access.js';
import type { MessageRow } from './presenter.js';
import { loadMessage } from './queries.js';
import { parseVcard } from './vcard.js';

/**
 * `POST /message/forward`: the message (text, file or contact card; a file is reused, not copied)
 * goes to the contact's live ticket on the source ticket's connection, or to a new ticket opened
 * for the caller. Stored with isForwarded and sent through the outbox.
 */
export async function forwardMessage(ctx: AppContext, auth: AuthUser, input: z.output<typeof forwardMessageBody>): Promise<Message> {
  const { message, ticket: source } = await visibleMessage(ctx.db, await loadViewer(ctx.db, auth), input.messageId);
  if (message.isDeleted) throw new AppError('ERR_NO_MESSAGE_FOUND', 404);
  if (message.isPrivate) throw new AppError('ERR_VALIDATION', 400, 'private notes are not forwarded');
  const [contact] = await ctx.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, auth.companyId), eq(contacts.id, input.contactId)));
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND', 404);
  if (!contact.active) throw new AppError('ERR_CONTACT_BLOCKED', 400);
  const [connection] = source.whatsappId ? await ctx.db.select().from(whatsapps).where(eq(whatsapps.id, source.whatsappId)) : [];
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND', 404);
  if (connection.channel !== contact.channel) throw new AppError('ERR_VALIDATION', 400, `the contact is not on the ${connection.channel} channel`);

  const { ticket } = await findOrCreateTicket(ctx.db, {
    companyId: auth.companyId,
    contactId: contact.id,
    whatsappId: connection.id,
    channel: connection.channel,
    isGroup: contact.isGroup,
    status: contact.isGroup ? 'group' : 'open',
    queueId: async () => source.queueId,
    reopenWithinMinutes: 0,
    firstMessageAt: new Date(),
    ownerId: auth.id,
  });

  const signature = input.signMessage ? await signatureOf(ctx, auth.id) : '';
  const row = await queueOutgoing(ctx, { companyId: auth.companyId, ticketId: ticket.id, isForwarded: true, ...content(message, signature) });
  return (await loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, row.id))!;
}

/** Whaticket's signature: the sender's name in bold on its own line. */
async function signatureOf(ctx: AppContext, userId: number): Promise<string> {
  const [user] = await ctx.db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return user ? `*${user.name}:*\n` : '';
}

function content(message: MessageRow, signature: string): Pick<OutgoingInput, 'body' | 'media' | 'contactCard'> {
  if (message.mediaType === 'contactMessage') return { body: '', contactCard: parseVcard(message.body) };
  if (message.mediaUrl) {
    const mimetype = (message.data as { mimetype?: string } | null)?.mimetype ?? mimetypeOfStored(message.mediaUrl);
    return { body: signature + message.body, media: { fileName: message.mediaUrl, mimetype, mediaType: message.mediaType } };
  }
  if (message.body.trim() === '') throw new AppError('ERR_EMPTY_MESSAGE', 400);
  return { body: signature + message.body };
}
