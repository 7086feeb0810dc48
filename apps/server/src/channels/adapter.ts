import type { Channel, MediaType } from '@balcao/contracts';
import type { whatsapps } from '../db/schema/index.js';

export type Connection = typeof whatsapps.$inferSelect;

/** Where an outgoing message goes: the contact as the channel addresses it. */
export interface Recipient {
  number: string;
  remoteJid: string;
  isGroup: boolean;
}

export interface OutgoingMedia {
  /** The stored file's bytes (local folder or S3 bucket). */
  read(): Promise<Buffer>;
  /** Public URL of the same file (channels that fetch media by URL). */
  url: string;
  fileName: string;
  mimetype: string;
  mediaType: MediaType;
}

export interface OutgoingMessage {
  to: Recipient;
  body: string;
  media?: OutgoingMedia;
  /** Channel id of the quoted message. */
  quotedWid?: string | null;
  /** A contact card: `body` holds its vCard; channels without cards send name and number as text. */
  contactCard?: { name: string; number: string; vcard: string };
  /** Channel id chosen before the send when the channel allows it (WhatsApp), so a retry cannot duplicate. */
  wid?: string | null;
}

/**
 * A failed send. `permanent` failures (invalid token, outside the 24-hour window,
 * invalid number) are marked failed at once; the others are retried with backoff.
 */
export class ChannelSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'ChannelSendError';
  }
}

/**
 * One channel (ARCHITECTURE §7). Adapters translate between the channel and the
 * pipeline; they hold no business rules: received events go to `channels/inbound.ts`,
 * sends come from `channels/outbound.ts`.
 */
export interface ChannelAdapter {
  readonly channels: readonly Channel[];
  /** Opens the session (a Baileys socket; for Meta, nothing to open) and reports its status. */
  start(connection: Connection): Promise<void>;
  /** Closes the session; `logout` also forgets the credentials (a new QR is needed). */
  stop(connection: Connection, opts: { logout: boolean }): Promise<void>;
  /** A channel id the adapter will use for the next send, when the channel lets us choose it. */
  newMessageId?(): string;
  send(connection: Connection, message: OutgoingMessage): Promise<{ wid: string }>;
  react(connection: Connection, to: Recipient, targetWid: string, emoji: string): Promise<void>;
  edit?(connection: Connection, to: Recipient, targetWid: string, body: string): Promise<void>;
  delete?(connection: Connection, to: Recipient, targetWid: string): Promise<void>;
  /** Tells the customer their messages were read (channels with read receipts). `participant`: the author in a group. */
  markRead?(connection: Connection, to: Recipient, read: { wid: string; participant?: string | null }[]): Promise<void>;
  /** The contact's picture URL, or null when hidden or unknown. */
  profilePicture(connection: Connection, to: Recipient): Promise<string | null>;
  /** Which of these numbers (international digits) have an account on the channel (WhatsApp); a number missing from the answer is unknown. */
  checkNumbers?(connection: Connection, numbers: string[]): Promise<Map<string, boolean>>;
  /** The phone's address book as the channel handed it over (WhatsApp), for `POST /contacts/import`: international digits and the saved name. */
  phoneContacts?(connection: Connection): Promise<PhoneEntry[]>;
  /** The people the phone has chats with (WhatsApp), for `POST /contacts/import/chats`. */
  phoneChats?(connection: Connection): Promise<PhoneEntry[]>;
}

/** A person on the connected phone: international digits and the name the phone knows them by ('' when none). */
export interface PhoneEntry {
  number: string;
  name: string;
}
