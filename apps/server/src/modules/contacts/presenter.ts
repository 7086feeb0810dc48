import type { Contact } from '@balcao/contracts';
import type { contacts } from '../../db/schema/index.js';

export type ContactRow = typeof contacts.$inferSelect;

/** The one place that shapes a contact for the API and the socket. */
export function presentContact(row: ContactRow, extraInfo: Contact['extraInfo'] = [], tags: Contact['tags'] = []): Contact {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    channel: row.channel,
    isGroup: row.isGroup,
    urlPicture: row.profilePicUrl,
    profilePicUrl: row.profilePicUrl,
    active: row.active,
    acceptAudioMessage: row.acceptAudioMessage,
    disableBot: row.disableBot,
    lgpdAcceptedAt: row.lgpdAcceptedAt?.toISOString() ?? null,
    extraInfo,
    tags,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
