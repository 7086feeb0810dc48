import type { Message, Ticket } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import type { Connection } from '../../channels/adapter.js';
import { queues, tickets, users } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';
import type { ContactRow } from '../contacts/presenter.js';
import { presentContacts } from '../contacts/queries.js';
import { presentMessage, type MessageRow } from '../messages/presenter.js';
import { loadMessage } from '../messages/queries.js';
import { tagsOfTickets } from '../tags/queries.js';
import { presentTicket, type TicketRow } from '../tickets/presenter.js';

/** What a message's transaction returned: enough to present the message and its ticket without reading them back. */
export interface StoredRows {
  ticket: TicketRow;
  message: MessageRow;
  /** The ticket's contact. */
  chat: ContactRow;
  /** The message's contact (the group member in a group; the chat otherwise). */
  sender: Pick<ContactRow, 'id' | 'name'>;
  connection: Connection;
}

/** PostgreSQL's btrim(x) <> '' (spaces only), as the ticket query computes hasFarewell. */
const hasText = (text: string) => /[^ ]/.test(text);

/**
 * The stored message and its ticket, shaped as `loadMessage`/`loadTicket` shape them but
 * from the written rows: only what the rows lack (the contact's extra info and tags, the
 * ticket's tags, its queue and owner's names) is read, in parallel — one round trip
 * instead of three sequential re-reads. A quoted message is read as before.
 */
export async function presentStored(ctx: AppContext, s: StoredRows): Promise<{ ticket: Ticket; message: Message } | undefined> {
  const { ticket: row, connection } = s;
  const [[contact], tagsOf, [names], quoting] = await Promise.all([
    presentContacts(ctx.db, [s.chat]),
    tagsOfTickets(ctx.db, [row.id]),
    row.queueId || row.userId
      ? ctx.db
          .select({ queue: { id: queues.id, name: queues.name, color: queues.color }, user: { id: users.id, name: users.name } })
          .from(tickets)
          .leftJoin(queues, eq(queues.id, tickets.queueId))
          .leftJoin(users, eq(users.id, tickets.userId))
          .where(eq(tickets.id, row.id))
      : [{ queue: null, user: null }],
    s.message.quotedMsgId ? loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, s.message.id) : undefined,
  ]);
  if (!contact || !names) return undefined;
  const ticket = presentTicket(row, {
    contact,
    queue: names.queue,
    user: names.user,
    whatsapp: {
      id: connection.id,
      name: connection.name,
      expiresTicket: connection.expiresTicket,
      groupAsTicket: connection.groupAsTicket,
      channel: connection.channel,
      hasFarewell: hasText(connection.complationMessage) || hasText(connection.ratingMessage),
    },
    tags: tagsOf.get(row.id) ?? [],
  });
  const message =
    quoting ??
    presentMessage(s.message, {
      ticket: { id: row.id, uuid: row.uuid, queue: names.queue && { name: names.queue.name } },
      contact: s.message.contactId === null ? null : { id: s.sender.id, name: s.sender.name },
      quoted: null,
      mediaUrl: (companyId, file) => ctx.storage.url(ctx.config.apiUrl, companyId, file),
    });
  return { ticket, message };
}
