import type { Message } from '@balcao/contracts';
import type { messages } from '../../db/schema/index.js';

export type MessageRow = typeof messages.$inferSelect;

export interface MessageIncludes {
  ticket: { id: number; uuid: string; queue: { name: string } | null };
  contact: { id: number; name: string } | null;
  quoted: (Pick<MessageRow, 'id' | 'body' | 'fromMe' | 'mediaType' | 'mediaUrl' | 'companyId' | 'isDeleted'> & { contact: { id: number; name: string } | null }) | null;
  /** Builds the public URL of a stored file. */
  mediaUrl: (companyId: number, fileName: string) => string;
  /** The company's `lgpdDeleteMessage`: what a contact deleted is answered without its body and media. */
  hideDeletedByContact: boolean;
}

/** A message the contact deleted, under `lgpdDeleteMessage`: its content is not answered at all (the UI shows the deleted mark from isDeleted). */
const obscured = (m: Pick<MessageRow, 'isDeleted' | 'fromMe'>, inc: MessageIncludes) => inc.hideDeletedByContact && m.isDeleted && !m.fromMe;

/** The one place that shapes a message (API-CONTRACT `GET /messages/{ticketId}`). */
export function presentMessage(row: MessageRow, inc: MessageIncludes): Message {
  const url = (companyId: number, file: string | null) => (file ? inc.mediaUrl(companyId, file) : null);
  const hidden = obscured(row, inc);
  const quotedHidden = !!inc.quoted && obscured(inc.quoted, inc);
  return {
    id: row.id,
    wid: row.wid,
    body: hidden ? '' : row.body,
    fromMe: row.fromMe,
    read: row.read,
    ack: row.ack,
    mediaType: row.mediaType,
    mediaUrl: hidden ? null : url(row.companyId, row.mediaUrl),
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
          body: quotedHidden ? '' : inc.quoted.body,
          fromMe: inc.quoted.fromMe,
          mediaType: inc.quoted.mediaType,
          mediaUrl: quotedHidden ? null : url(inc.quoted.companyId, inc.quoted.mediaUrl),
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
