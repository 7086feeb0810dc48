import type { Message } from '@balcao/contracts';
import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { contacts, messages, queues, tickets } from '../../db/schema/index.js';
import type { MediaStorage } from '../../storage/media.js';
import { presentMessage, type MessageRow } from './presenter.js';

const quotedContact = alias(contacts, 'quoted_contact');
const quoted = alias(messages, 'quoted');

/** The message with its includes, shaped for the API. */
export async function loadMessage(db: DbOrTx, storage: MediaStorage, apiUrl: string, id: number): Promise<Message | undefined> {
  const [row] = await db
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
    .leftJoin(quotedContact, eq(quotedContact.id, quoted.contactId))
    .where(eq(messages.id, id));
  if (!row) return undefined;
  return presentMessage(row.message, {
    ticket: { id: row.ticket.id, uuid: row.ticket.uuid, queue: row.queueName !== null ? { name: row.queueName } : null },
    contact: row.contact,
    quoted: row.quoted ? { ...row.quoted, contact: row.quotedContact } : null,
    mediaUrl: (companyId, file) => storage.url(apiUrl, companyId, file),
  });
}

export async function findMessageByWid(db: DbOrTx, whatsappId: number, wid: string): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)));
  return row;
}
