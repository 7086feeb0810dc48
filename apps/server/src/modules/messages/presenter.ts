import type { Message } from '@balcao/contracts';
import type { messages } from '../../db/schema/index.js';

export type MessageRow = typeof messages.$inferSelect;

export interface MessageIncludes {
  ticket: { id: number; uuid: string; queue: { name: string } | null };
  contact: { id: number; name: string } | null;
  quoted: (Pick<MessageRow, 'id' | 'body' | 'fromMe' | 'mediaType' | 'mediaUrl' | 'companyId'> & { contact: { id: number; name: string } | null }) | null;
  /** Builds the public URL of a stored file. */
  mediaUrl: (companyId: number, fileName: string) => string;
}

/** The one place that shapes a message (API-CONTRACT `GET /messages/{ticketId}`). */
export function presentMessage(row: MessageRow, inc: MessageIncludes): Message {
  const url = (companyId: number, file: string | null) => (file ? inc.mediaUrl(companyId, file) : null);
  return {
    id: row.id,
    wid: row.wid,
    body: row.body,
    fromMe: row.fromMe,
    read: row.read,
    ack: row.ack,
    mediaType: row.mediaType,
    mediaUrl: url(row.companyId, row.mediaUrl),
    isDeleted: row.isDeleted,
    isEdited: row.isEdited,
    isForwarded: row.isForwarded,
    isPrivate: row.isPrivate,
    sendStatus: row.sendStatus,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ticketId: row.ticketId,
    contactId: row.contactId,
    queueId: row.queueId,
    quotedMsgId: row.quotedMsgId,
    quotedMsg: inc.quoted
      ? {
          id: inc.quoted.id,
          body: inc.quoted.body,
          fromMe: inc.quoted.fromMe,
          mediaType: inc.quoted.mediaType,
          mediaUrl: url(inc.quoted.companyId, inc.quoted.mediaUrl),
          contact: inc.quoted.contact,
        }
      : null,
    contact: inc.contact,
    ticket: inc.ticket,
  };
}

/**
 * A message as a viewer may see it: the ticket's contact named as the viewer sees it
 * (LGPD: a WhatsApp contact without a push name is named by its number), in the
 * message and in the message it quotes. `contact` is the ticket's contact, already masked.
 */
export function messageForViewer(message: Message, contact: { id: number; name: string }): Message {
  const named = (c: { id: number; name: string } | null) => (c?.id === contact.id ? { id: c.id, name: contact.name } : c);
  return { ...message, contact: named(message.contact), quotedMsg: message.quotedMsg && { ...message.quotedMsg, contact: named(message.quotedMsg.contact) } };
}
