import { ACK, type MediaType } from '@balcao/contracts';
import { z } from 'zod';
import type { InboundEvent } from '../inbound-event.js';

/** The envelope Meta posts (Messenger `object:"page"`, Instagram `object:"instagram"`); event bodies are read leniently. */
export const metaWebhookSchema = z.object({
  object: z.enum(['page', 'instagram']),
  entry: z
    .array(
      z.object({
        id: z.union([z.string(), z.number()]).transform(String),
        time: z.number().optional(),
        messaging: z.array(z.record(z.string(), z.unknown())).max(1000).optional(),
      }),
    )
    .min(1)
    .max(1000),
});
export type MetaWebhook = z.infer<typeof metaWebhookSchema>;

/**
 * `metaWebhookSchema.parse` of a JSON value, checked by hand when it has the shape Meta posts (the
 * acknowledgement's path, at Meta's rate): the same rules and the same result. Anything the hand check
 * does not accept goes to the schema, so a refused body gets zod's issues, as before.
 */
export function readMetaWebhook(json: unknown): MetaWebhook {
  return envelopeOf(json) ?? metaWebhookSchema.parse(json);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string | number => typeof value === 'string' || Number.isFinite(value);
/** A `z.record` a JSON value passes unchanged (the record's copy drops an own `__proto__` key: left to zod). */
const isRecord = (value: unknown): value is Record<string, unknown> => isObject(value) && !Object.hasOwn(value, '__proto__');

function envelopeOf(json: unknown): MetaWebhook | undefined {
  if (!isObject(json) || (json.object !== 'page' && json.object !== 'instagram')) return undefined;
  const entries = json.entry;
  if (!Array.isArray(entries) || entries.length < 1 || entries.length > 1000) return undefined;
  const entry: MetaWebhook['entry'] = [];
  for (const e of entries) {
    if (!isObject(e) || !isId(e.id)) return undefined;
    const { time, messaging } = e;
    if (time !== undefined && !Number.isFinite(time)) return undefined;
    if (messaging !== undefined && !(Array.isArray(messaging) && messaging.length <= 1000 && messaging.every(isRecord))) return undefined;
    // As the schema outputs it: its keys only, the id a string.
    const out: MetaWebhook['entry'][number] = { id: String(e.id) };
    if (time !== undefined) out.time = time as number;
    if (messaging !== undefined) out.messaging = messaging as Record<string, unknown>[];
    entry.push(out);
  }
  return { object: json.object, entry };
}

/** One messaging item, mapped: which account it is for, who the customer is, what happened. */
export interface MetaEvent {
  /** The Page id (Messenger) or IG professional account id (Instagram): picks the connection. */
  accountId: string;
  channel: 'facebook' | 'instagram';
  /** PSID / IGSID of the customer. */
  customerId: string;
  event: InboundEvent;
  /** Attachment to download into storage. */
  mediaUrl?: string;
}

const idOf = z.object({ id: z.union([z.string(), z.number()]).transform(String) });
const attachmentSchema = z.object({
  type: z.string(),
  payload: z
    .object({ url: z.string().optional(), title: z.string().optional(), sticker_id: z.unknown().optional() })
    .loose()
    .nullable()
    .optional(),
});
const itemSchema = z
  .object({
    sender: idOf,
    recipient: idOf,
    timestamp: z.number().optional(),
    message: z
      .object({
        mid: z.string(),
        text: z.string().optional(),
        is_echo: z.boolean().optional(),
        is_deleted: z.boolean().optional(),
        app_id: z.union([z.string(), z.number()]).transform(String).optional(),
        attachments: z.array(attachmentSchema).optional(),
        reply_to: z.object({ mid: z.string().optional() }).loose().optional(),
      })
      .loose()
      .optional(),
    message_edit: z.object({ mid: z.string(), text: z.string().optional() }).loose().optional(),
    reaction: z.object({ mid: z.string(), action: z.string().optional(), emoji: z.string().optional(), reaction: z.string().optional() }).loose().optional(),
    read: z.object({ watermark: z.number().optional(), mid: z.string().optional() }).loose().optional(),
    delivery: z.object({ mids: z.array(z.string()).optional(), watermark: z.number().optional() }).loose().optional(),
    postback: z.object({ title: z.string().optional(), payload: z.string().optional(), mid: z.string().optional() }).loose().optional(),
  })
  .loose();
type Item = z.infer<typeof itemSchema>;

const ATTACHMENT_MEDIA: Record<string, MediaType> = {
  image: 'image',
  audio: 'audio',
  video: 'video',
  file: 'application',
  story_mention: 'image',
  ig_reel: 'video',
  reel: 'video',
};

/**
 * Maps a verified webhook body to pipeline events. Items of unknown shape are
 * skipped (`skipped` counts them); echoes of our own app's sends are dropped
 * because the outbox already stored them.
 */
export function parseMetaWebhook(body: MetaWebhook, ownAppId?: string): { events: MetaEvent[]; skipped: number } {
  const channel = body.object === 'instagram' ? 'instagram' : 'facebook';
  const events: MetaEvent[] = [];
  let skipped = 0;
  for (const entry of body.entry) {
    for (const raw of entry.messaging ?? []) {
      const item = itemSchema.safeParse(raw);
      const mapped = item.success ? mapItem(item.data, entry.id, channel, raw, ownAppId) : null;
      if (mapped === null) skipped++;
      else if (mapped !== 'drop') events.push(...mapped);
    }
  }
  return { events, skipped };
}

function mapItem(item: Item, accountId: string, channel: MetaEvent['channel'], raw: unknown, ownAppId?: string): MetaEvent[] | 'drop' | null {
  const echo = item.message?.is_echo === true;
  const customerId = echo ? item.recipient.id : item.sender.id;
  const at = new Date(item.timestamp ?? Date.now());
  const base = { accountId, channel, customerId };
  const chat = { number: customerId, name: customerId, remoteJid: customerId, isGroup: false };

  if (item.message) {
    const m = item.message;
    if (echo && ownAppId && m.app_id === ownAppId) return 'drop';
    if (m.is_deleted) return [{ ...base, event: { kind: 'delete', wid: m.mid } }];
    const attachment = m.attachments?.[0];
    let mediaType: MediaType = 'chat';
    let body = m.text ?? '';
    let mediaUrl: string | undefined;
    if (attachment) {
      const url = attachment.payload?.url;
      if (attachment.payload?.sticker_id !== undefined) mediaType = 'sticker';
      else if (attachment.type === 'location') mediaType = 'locationMessage';
      else if (attachment.type === 'fallback' || attachment.type === 'share') {
        body = body || [attachment.payload?.title, url].filter(Boolean).join('\n');
      } else mediaType = ATTACHMENT_MEDIA[attachment.type] ?? 'application';
      if (mediaType !== 'chat' && mediaType !== 'locationMessage' && url) mediaUrl = url;
      if (mediaType === 'locationMessage') body = body || url || '';
    }
    const event: InboundEvent = {
      kind: 'message',
      wid: m.mid,
      fromMe: echo,
      body,
      mediaType,
      quotedWid: m.reply_to?.mid ?? null,
      at,
      chat,
      raw,
    };
    return [{ ...base, event, mediaUrl }];
  }
  if (item.message_edit) return [{ ...base, event: { kind: 'edit', wid: item.message_edit.mid, body: item.message_edit.text ?? '' } }];
  if (item.reaction) {
    const r = item.reaction;
    const emoji = r.action === 'unreact' ? '' : (r.emoji ?? r.reaction ?? '');
    // A reaction has no id of its own: one row per (target, customer, time).
    const wid = `reaction:${r.mid}:${customerId}:${item.timestamp ?? at.getTime()}`;
    return [{ ...base, event: { kind: 'message', wid, fromMe: false, body: emoji, mediaType: 'reactionMessage', quotedWid: r.mid, at, chat, raw } }];
  }
  if (item.postback) {
    const p = item.postback;
    const wid = p.mid ?? `postback:${customerId}:${item.timestamp ?? at.getTime()}`;
    return [{ ...base, event: { kind: 'message', wid, fromMe: false, body: p.title ?? p.payload ?? '', mediaType: 'chat', at, chat, raw } }];
  }
  if (item.delivery) {
    const d = item.delivery;
    if (d.mids?.length) return d.mids.map((mid) => ({ ...base, event: { kind: 'ack', wid: mid, ack: ACK.delivered } }));
    return [{ ...base, event: { kind: 'watermark', chatNumber: customerId, upTo: new Date(d.watermark ?? at.getTime()), ack: ACK.delivered } }];
  }
  if (item.read) {
    return [{ ...base, event: { kind: 'watermark', chatNumber: customerId, upTo: new Date(item.read.watermark ?? at.getTime()), ack: ACK.read } }];
  }
  return null;
}
