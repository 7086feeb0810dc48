import type { Message } from '@balcao/contracts';

/** A message with every field the list reads; tests override what they need. */
export function fakeMessage(over: Partial<Message> & { id: number }): Message {
  return {
    wid: null,
    body: `m${over.id}`,
    fromMe: false,
    read: true,
    ack: 0,
    mediaType: 'chat',
    mediaUrl: null,
    isDeleted: false,
    isEdited: false,
    isForwarded: false,
    isPrivate: false,
    sendStatus: null,
    createdAt: '2026-11-20T12:00:00.000Z',
    updatedAt: '2026-11-20T12:00:00.000Z',
    ticketId: 1,
    contactId: 1,
    queueId: null,
    quotedMsgId: null,
    quotedMsg: null,
    contact: null,
    ticket: { id: 1, uuid: 'u', queue: null },
    ...over,
  };
}
