import type { MediaType } from '@balcao/contracts';

/** What every adapter hands to the conversation pipeline (modules/conversations). */

/** A person or group as a channel names it. */
export interface InboundParty {
  /** Phone digits, group id, or PSID / IGSID. */
  number: string;
  name: string;
  remoteJid: string;
  isGroup: boolean;
  pictureUrl?: string | null;
}

export interface InboundMedia {
  data: Buffer;
  mimetype: string;
  fileName?: string;
}

/** A message as every adapter hands it to the pipeline. */
export interface InboundMessage {
  kind: 'message';
  wid: string;
  fromMe: boolean;
  body: string;
  mediaType: MediaType;
  /** Downloads the media (only called for a message not seen before). */
  loadMedia?: () => Promise<InboundMedia | null>;
  /** Name and picture of a contact seen for the first time (Meta profile lookup). */
  lookupProfile?: () => Promise<{ name?: string; pictureUrl?: string | null } | null>;
  quotedWid?: string | null;
  isForwarded?: boolean;
  at: Date;
  /** The conversation: the contact, or the group. */
  chat: InboundParty;
  /** In a group: who wrote. */
  sender?: InboundParty;
  raw: unknown;
}

export type InboundEvent =
  | InboundMessage
  | { kind: 'edit'; wid: string; body: string }
  | { kind: 'delete'; wid: string }
  /** Our message's delivery state changed (ack 1–5), or the channel refused it. */
  | { kind: 'ack'; wid: string; ack: number; error?: string }
  /** Meta watermarks: every message of ours to this contact up to `upTo` reached `ack`. */
  | { kind: 'watermark'; chatNumber: string; upTo: Date; ack: number };

/** A history import: stored without behaviours or events, in the import's queue. */
export interface ImportMode {
  queueId: number | null;
  importedAt: Date;
}
