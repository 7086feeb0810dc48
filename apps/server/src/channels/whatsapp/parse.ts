import { getContentType, normalizeMessageContent, type proto, type WACallEvent, type WAMessage, type WAMessageUpdate } from '@whiskeysockets/baileys';
import { ACK, type MediaType } from '@balcao/contracts';
import type { InboundEvent, InboundMessage, InboundParty } from '../inbound-event.js';

/** Baileys 7 → pipeline events. Pure: no socket, no database (media and profiles are attached by the caller). */

const PN = '@s.whatsapp.net';
const LID = '@lid';
const GROUP = '@g.us';

/** protobuf Long (live events) or number (JSON) → number. */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v && typeof (v as { toNumber?: unknown }).toNumber === 'function') return (v as { toNumber(): number }).toNumber();
  // A Long after a JSON round trip (a stored raw event replayed).
  if (v && typeof v === 'object' && 'low' in v) return (v as { high?: number }).high! * 2 ** 32 + ((v as { low: number }).low >>> 0);
  return Number(v ?? 0);
}

const userOf = (jid: string) => jid.split('@')[0]!.split(':')[0]!;

/** Chats we never turn into tickets: status updates, broadcasts, channels. */
export function isIgnoredJid(jid: string | null | undefined): boolean {
  return !jid || jid === 'status@broadcast' || jid.endsWith('@broadcast') || jid.endsWith('@newsletter');
}

/**
 * A person as the key names them: the phone-number form when either form is one
 * (`remoteJidAlt` / `participantAlt`), else the LID (WhatsApp hides the number).
 */
export function personParty(jid: string, alt: string | null | undefined, name: string): InboundParty {
  const pn = jid.endsWith(PN) ? jid : alt?.endsWith(PN) ? alt : undefined;
  const chosen = pn ?? jid;
  const number = userOf(chosen);
  return { number, name: name || number, remoteJid: pn ? `${number}${PN}` : chosen, isGroup: false };
}

export function groupParty(jid: string): InboundParty {
  const number = userOf(jid);
  return { number, name: number, remoteJid: jid, isGroup: true };
}

interface Content {
  body: string;
  mediaType: MediaType;
  quotedWid?: string | null;
  isForwarded?: boolean;
  hasMedia?: boolean;
}

const MEDIA: Record<string, MediaType> = {
  imageMessage: 'image',
  videoMessage: 'video',
  ptvMessage: 'video',
  audioMessage: 'audio',
  documentMessage: 'application',
  stickerMessage: 'sticker',
};

/** Body, type and quote of a normalised message; undefined for types we do not show. */
export function readContent(content: proto.IMessage): Content | undefined {
  const type = getContentType(content);
  if (!type) return undefined;
  const ctxInfo = (content[type] as { contextInfo?: proto.IContextInfo | null } | null)?.contextInfo;
  const quote = { quotedWid: ctxInfo?.stanzaId ?? null, isForwarded: !!ctxInfo?.isForwarded };
  switch (type) {
    case 'conversation':
      return { body: content.conversation ?? '', mediaType: 'chat' };
    case 'extendedTextMessage':
      return { body: content.extendedTextMessage?.text ?? '', mediaType: 'chat', ...quote };
    case 'imageMessage':
    case 'videoMessage':
    case 'ptvMessage':
    case 'audioMessage':
    case 'documentMessage':
    case 'stickerMessage': {
      const media = content[type] as { caption?: string | null; fileName?: string | null } | null;
      const body = media?.caption ?? (type === 'documentMessage' ? (media?.fileName ?? '') : '');
      return { body, mediaType: MEDIA[type]!, hasMedia: true, ...quote };
    }
    case 'locationMessage':
    case 'liveLocationMessage': {
      const loc = content[type]!;
      const place = [(loc as proto.Message.ILocationMessage).name, (loc as proto.Message.ILocationMessage).address].filter(Boolean).join('\n');
      const url = `https://maps.google.com/maps?q=${loc.degreesLatitude},${loc.degreesLongitude}&z=17`;
      return { body: place ? `${url}\n${place}` : url, mediaType: 'locationMessage', ...quote };
    }
    case 'contactMessage':
      return { body: content.contactMessage?.vcard ?? '', mediaType: 'contactMessage', ...quote };
    case 'contactsArrayMessage':
      return { body: (content.contactsArrayMessage?.contacts ?? []).map((c) => c.vcard ?? '').join('\n'), mediaType: 'contactMessage' };
    case 'reactionMessage':
      return { body: content.reactionMessage?.text ?? '', mediaType: 'reactionMessage', quotedWid: content.reactionMessage?.key?.id ?? null };
    case 'buttonsResponseMessage':
      return { body: content.buttonsResponseMessage?.selectedDisplayText ?? '', mediaType: 'chat', ...quote };
    case 'listResponseMessage':
      return { body: content.listResponseMessage?.title ?? '', mediaType: 'chat', ...quote };
    case 'templateButtonReplyMessage':
      return { body: content.templateButtonReplyMessage?.selectedDisplayText ?? '', mediaType: 'chat', ...quote };
    default:
      return undefined;
  }
}

/** Edits arrive as `protocolMessage` type 14 (from Baileys) or inside `editedMessage` (from phones). */
const PROTOCOL_REVOKE = 0;
const PROTOCOL_EDIT = 14;

/** One `messages.upsert` message → a pipeline event (or undefined: not for a ticket). */
export function parseUpsert(msg: WAMessage): InboundEvent | undefined {
  const key = msg.key;
  const remoteJid = key.remoteJid;
  if (isIgnoredJid(remoteJid) || !key.id || !remoteJid) return undefined;
  const content = normalizeMessageContent(msg.message);
  if (!content) return undefined;
  const protocol = content.protocolMessage;
  if (protocol) {
    const target = protocol.key?.id;
    if (!target) return undefined;
    if (protocol.type === PROTOCOL_REVOKE) return { kind: 'delete', wid: target };
    if (protocol.type === PROTOCOL_EDIT && protocol.editedMessage) {
      return { kind: 'edit', wid: target, body: readContent(normalizeMessageContent(protocol.editedMessage) ?? {})?.body ?? '' };
    }
    return undefined;
  }
  const read = readContent(content);
  if (!read) return undefined;

  const isGroup = remoteJid.endsWith(GROUP);
  const fromMe = !!key.fromMe;
  const name = fromMe ? '' : (msg.pushName ?? '');
  const chat = isGroup ? groupParty(remoteJid) : personParty(remoteJid, fromMe ? undefined : key.remoteJidAlt, name);
  const sender = isGroup && !fromMe && key.participant ? personParty(key.participant, key.participantAlt, name) : undefined;
  const event: InboundMessage = {
    kind: 'message',
    wid: key.id,
    fromMe,
    body: read.body,
    mediaType: read.mediaType,
    quotedWid: read.quotedWid ?? null,
    isForwarded: read.isForwarded,
    at: new Date(toNumber(msg.messageTimestamp) * 1000 || Date.now()),
    chat,
    sender,
    raw: msg,
  };
  return event;
}

/** Whether the message carries a file worth downloading. */
export function hasMedia(msg: WAMessage): boolean {
  const content = normalizeMessageContent(msg.message);
  return !!content && !!readContent(content)?.hasMedia;
}

/** The size the sender declared, to refuse oversized media before downloading it. */
export function declaredSize(msg: WAMessage): number {
  const content = normalizeMessageContent(msg.message);
  const type = content ? getContentType(content) : undefined;
  const media = type ? (content![type] as { fileLength?: unknown } | null) : null;
  return toNumber(media?.fileLength);
}

/** WhatsApp receipt status (proto.WebMessageInfo.Status) → our ack (spec 2 §4 icons). */
const STATUS_TO_ACK: Record<number, number> = { 2: ACK.sent, 3: ACK.delivered, 4: ACK.read, 5: ACK.played };

/** `messages.update` → acks of our messages, edits and deletions. */
export function parseUpdate(u: WAMessageUpdate): InboundEvent | undefined {
  const wid = u.key.id;
  if (!wid || isIgnoredJid(u.key.remoteJid)) return undefined;
  const { update } = u;
  if (update.message === null && update.messageStubType === 1) return { kind: 'delete', wid };
  if (update.message) {
    const content = normalizeMessageContent(update.message);
    const edited = content?.protocolMessage?.editedMessage ?? content;
    const body = edited ? readContent(normalizeMessageContent(edited) ?? {})?.body : undefined;
    if (body !== undefined) return { kind: 'edit', wid, body };
  }
  if (update.status !== undefined && update.status !== null && u.key.fromMe) {
    const status = toNumber(update.status);
    if (status === 0) return { kind: 'ack', wid, ack: 0, error: `WhatsApp refused the message (${update.messageStubParameters?.join(',') ?? 'error'})` };
    const ack = STATUS_TO_ACK[status];
    if (ack !== undefined) return { kind: 'ack', wid, ack };
  }
  return undefined;
}

/** `messages.reaction` → a reaction message quoting its target. */
export function parseReaction(r: { key: proto.IMessageKey; reaction: proto.IReaction }): InboundEvent | undefined {
  const rkey = r.reaction.key;
  const jid = rkey?.remoteJid ?? r.key.remoteJid;
  if (!rkey?.id || !jid || isIgnoredJid(jid)) return undefined;
  const isGroup = jid.endsWith(GROUP);
  const fromMe = !!rkey.fromMe;
  const alt = (rkey as { remoteJidAlt?: string | null }).remoteJidAlt;
  return {
    kind: 'message',
    wid: rkey.id,
    fromMe,
    body: r.reaction.text ?? '',
    mediaType: 'reactionMessage',
    quotedWid: r.key.id ?? null,
    at: new Date(toNumber(r.reaction.senderTimestampMs) || Date.now()),
    chat: isGroup ? groupParty(jid) : personParty(jid, fromMe ? undefined : alt, ''),
    raw: r,
  };
}

/** An incoming call offer → a call log line in the ticket. */
export function parseCall(call: WACallEvent): InboundEvent | undefined {
  if (call.status !== 'offer' || call.isGroup) return undefined;
  const at = new Date(call.date);
  const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  return {
    kind: 'message',
    wid: call.id,
    fromMe: false,
    body: `Chamada de ${call.isVideo ? 'vídeo' : 'voz'} perdida às ${hhmm}`,
    mediaType: 'call_log',
    at,
    chat: personParty(call.from, call.callerPn, ''),
    raw: call,
  };
}

export const isLidJid = (jid: string) => jid.endsWith(LID);

