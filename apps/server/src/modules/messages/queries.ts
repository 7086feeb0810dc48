import type { Message } from '@balcao/contracts';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { contacts, messages, queues, tickets } from '../../db/schema/index.js';
import type { MediaStorage } from '../../storage/media.js';
import { presentMessage, type MessageRow } from './presenter.js';

const quotedContact = alias(contacts, 'quoted_contact');
const quoted = alias(messages, 'quoted');

/** Messages with their includes (ticket, queue, contact, quoted message and its contact) in one query. */
function selectMessages(db: DbOrTx) {
  return db
    .select({
      message: messages,
      ticket: { id: tickets.id, uuid: tickets.uuid },
      queueName: queues.name,
      contact: { id: contacts.id, name: contacts.name },
      quoted: { id: quoted.id, body: quoted.body, fromMe: quoted.fromMe, mediaType: quoted.mediaType, mediaUrl: quoted.mediaUrl, companyId: quoted.companyId },
      quotedContact: { id: quotedContact.id, name: quotedContact.name },
    })
    .from(messages)
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(contacts, eq(contacts.id, messages.contactId))
    .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId))
    .leftJoin(quotedContact, eq(quotedContact.id, quoted.contactId));
}

type SelectedRow = Awaited<ReturnType<ReturnType<typeof selectMessages>['where']>>[number];

function present(row: SelectedRow, storage: MediaStorage, apiUrl: string): Message {
  return presentMessage(row.message, {
    ticket: { id: row.ticket.id, uuid: row.ticket.uuid, queue: row.queueName !== null ? { name: row.queueName } : null },
    contact: row.contact,
    quoted: row.quoted ? { ...row.quoted, contact: row.quotedContact } : null,
    mediaUrl: (companyId, file) => storage.url(apiUrl, companyId, file),
  });
}

/** The message with its includes, shaped for the API. */
export async function loadMessage(db: DbOrTx, storage: MediaStorage, apiUrl: string, id: number): Promise<Message | undefined> {
  const [row] = await selectMessages(db).where(eq(messages.id, id));
  return row && present(row, storage, apiUrl);
}

/** Several messages with their includes in one query (a burst's announcements); unknown ids are left out. */
export async function loadMessages(db: DbOrTx, storage: MediaStorage, apiUrl: string, ids: number[]): Promise<Message[]> {
  if (ids.length === 0) return [];
  const rows = await selectMessages(db).where(inArray(messages.id, ids));
  return rows.map((row) => present(row, storage, apiUrl));
}

/**
 * One page of a ticket's conversation: the `limit` messages after skipping the `offset`
 * newest (index messages(ticket_id, created_at)), answered oldest → newest.
 */
export async function listTicketMessages(
  db: DbOrTx,
  storage: MediaStorage,
  apiUrl: string,
  ticketId: number,
  page: { limit: number; offset: number },
): Promise<{ messages: Message[]; count: number }> {
  const rows = await selectMessages(db)
    .where(eq(messages.ticketId, ticketId))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(messages).where(eq(messages.ticketId, ticketId));
  return { messages: rows.reverse().map((r) => present(r, storage, apiUrl)), count: total?.n ?? 0 };
}

/** A message of the company, or undefined (ids of other companies are unknown). */
export async function findMessageRow(db: DbOrTx, companyId: number, id: number): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.companyId, companyId), eq(messages.id, id)));
  return row;
}

export async function findMessageByWid(db: DbOrTx, whatsappId: number, wid: string): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)));
  return row;
}
