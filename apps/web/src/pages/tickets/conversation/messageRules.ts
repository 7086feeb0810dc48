import type { Message, MediaType, Ticket } from '@balcao/contracts';

/** Spec 2 §5: one's own message may be edited within 15 minutes of its creation. */
export const EDIT_WINDOW_MS = 900_000;

export type AckState = 'clock' | 'sent' | 'delivered' | 'read' | 'played';

/** Spec 2 §4: 0 clock, 1 sent, 2 delivered, 3 or 4 read (4 is played for audio), 5 played. */
export function ackState(ack: number, mediaType: MediaType): AckState {
  if (ack >= 5) return 'played';
  if (ack === 4) return mediaType === 'audio' ? 'played' : 'read';
  if (ack === 3) return 'read';
  if (ack === 2) return 'delivered';
  if (ack === 1) return 'sent';
  return 'clock';
}

/** Text messages the attendant sent, not deleted, still inside the edit window. */
export function canEditMessage(m: Pick<Message, 'fromMe' | 'isDeleted' | 'mediaType' | 'createdAt' | 'isPrivate'>, now: number): boolean {
  if (!m.fromMe || m.isDeleted || m.mediaType !== 'chat') return false;
  const age = now - new Date(m.createdAt).getTime();
  return age >= 0 && age < EDIT_WINDOW_MS;
}

/** Milliseconds until the edit item disappears (0 when it already has). */
export function editWindowLeft(createdAt: string, now: number): number {
  return Math.max(0, new Date(createdAt).getTime() + EDIT_WINDOW_MS - now);
}

export function canDeleteMessage(m: Pick<Message, 'fromMe' | 'isDeleted'>): boolean {
  return m.fromMe && !m.isDeleted;
}

/** Reactions, deleted messages and call logs cannot be forwarded or quoted. */
export function canQuoteOrForward(m: Pick<Message, 'isDeleted' | 'mediaType'>): boolean {
  return !m.isDeleted && m.mediaType !== 'reactionMessage' && m.mediaType !== 'call_log';
}

/** A private note stays inside the team: it is never forwarded to a contact. */
export function canForwardMessage(m: Pick<Message, 'isDeleted' | 'mediaType' | 'isPrivate'>): boolean {
  return canQuoteOrForward(m) && !m.isPrivate;
}

/** Spec 2 §4: the composer works only for open or group tickets. */
export function composerEnabled(status: Ticket['status']): boolean {
  return status === 'open' || status === 'group';
}

/** Spec 2 §2 and §9: Facebook and Instagram allow replies within 24 hours of the customer's last message. */
export function hasReplyWindow(channel: Ticket['channel']): boolean {
  return channel === 'facebook' || channel === 'instagram';
}

/** The file name at the end of a media URL, decoded, without a query string. */
export function fileNameOf(url: string | null | undefined): string {
  if (!url) return '';
  const path = url.split(/[?#]/)[0] ?? '';
  const last = path.split('/').pop() ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // Not percent-encoded: shown as stored.
  }
  // Stored documents are named `<32 hex>-<readable name>.<ext>` (the server's media storage).
  return name.replace(/^[0-9a-f]{32}-(?=.)/, '');
}

/** A vCard's display name and phone numbers (contact messages store the card in the body). */
export function parseVCard(body: string): { name: string; numbers: string[] } {
  const lines = body.split(/\r?\n/);
  let name = '';
  const numbers: string[] = [];
  for (const line of lines) {
    const [rawKey, ...rest] = line.split(':');
    const value = rest.join(':').trim();
    const key = (rawKey ?? '').toUpperCase();
    if (key === 'FN' || (key === 'N' && !name)) name = key === 'N' ? value.split(';').filter(Boolean).reverse().join(' ') : value;
    else if (key.startsWith('TEL') || key.includes('.TEL')) {
      const waid = /waid=(\d+)/i.exec(rawKey ?? '')?.[1];
      numbers.push(waid ?? value);
    }
  }
  return { name, numbers };
}

/** A location body: 'image|link' (from WhatsApp) or a maps link or 'lat,lng'. Returns the map link to open. */
export function locationLink(body: string): string | null {
  const parts = body.split('|');
  const link = parts.find((p) => /^https?:\/\//.test(p.trim()));
  if (link) return link.trim();
  const coords = /(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)/.exec(body);
  return coords ? `https://maps.google.com/maps?q=${coords[1]},${coords[2]}` : null;
}
