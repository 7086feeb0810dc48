import { type createTicketBody, type Ticket } from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { contacts, users, whatsapps } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { openTicket } from '../conversations/commands/tickets.js';
import { loadTicket } from './queries.js';
import { assertMayUseQueue, liveStatusFor, liveTicketId } from './rules.js';
import { loadViewer } from './visibility.js';

/** A new ticket, or the contact's live ticket on that connection (the 409 "Ticket creation conflict"). */
export type CreateTicketResult = { ticket: Ticket } | { conflict: Ticket };

/**
 * `POST /tickets` (the new-ticket dialog): an open ticket owned by the caller, or by the
 * user an admin names. Contact, queue and connection must be the caller's company's; a
 * plain user may only create for themself and in their own queues. The partial unique
 * index keeps one live ticket per contact and connection: a concurrent create that
 * loses the race answers the winner's ticket as the conflict.
 */
export async function createTicket(ctx: AppContext, by: AuthUser, body: z.output<typeof createTicketBody>): Promise<CreateTicketResult> {
  const viewer = await loadViewer(ctx.db, by);
  const companyId = by.companyId;
  const [contact] = await ctx.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, body.contactId)));
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND', 404);
  if (!contact.active) throw new AppError('ERR_CONTACT_BLOCKED', 400);

  const [connection] = await ctx.db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), body.whatsappId ? eq(whatsapps.id, body.whatsappId) : eq(whatsapps.isDefault, true)));
  if (!connection) throw new AppError(body.whatsappId ? 'ERR_NO_WAPP_FOUND' : 'ERR_NO_DEF_WAPP_FOUND', 404);
  if (connection.channel !== contact.channel) throw new AppError('ERR_VALIDATION', 400, 'the contact is not on this connection’s channel');

  if (!body.queueId) throw new AppError('ERR_QUEUE_REQUIRED', 400);
  await assertMayUseQueue(ctx.db, viewer, body.queueId);

  const ownerId = body.userId ?? by.id;
  if (ownerId !== by.id) {
    if (!viewer.isAdmin) throw new AppError('ERR_NO_PERMISSION', 403);
    const [owner] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.companyId, companyId), eq(users.id, ownerId)));
    if (!owner) throw new AppError('ERR_NO_USER_FOUND', 404);
  }

  // A conflict whose live ticket closes before we read it: try again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const live = await liveTicketId(ctx.db, contact.id, connection.id);
    if (live) return { conflict: (await loadTicket(ctx.db, live))! };
    const ticket = await openTicket(ctx, {
      companyId,
      contactId: contact.id,
      whatsappId: connection.id,
      channel: connection.channel,
      isGroup: contact.isGroup,
      status: liveStatusFor({ isGroup: contact.isGroup, channel: connection.channel }),
      queueId: body.queueId,
      userId: ownerId,
      by: by.id,
    });
    if (ticket) return { ticket };
  }
  throw new AppError('ERR_OTHER_OPEN_TICKET', 409);
}
