import { stripWhatsappMarkup, type Ticket } from '@balcao/contracts';
import { readableTextOn } from '../../../layout/contrast';

/** Spec 2 §2 "Ticket row": how much of a row's texts is shown. */
export const CONTACT_NAME_MAX = 60;
export const LAST_MESSAGE_MAX = 40;
export const ROW_TAGS_SHOWN = 2;
/** Queue select chips shown before '+N Filas'. */
export const QUEUE_CHIPS_SHOWN = 2;

/** The first `max` characters (whole code points, so an emoji is never split), with an ellipsis when cut. */
export function truncate(text: string | null | undefined, max: number): string {
  const chars = Array.from(text ?? '');
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : chars.join('');
}

/** The first `shown` items and how many more there are (rendered as '+N'). */
export function firstWithRest<T>(items: readonly T[], shown: number): { shown: T[]; rest: number } {
  return { shown: items.slice(0, shown), rest: Math.max(0, items.length - shown) };
}

/**
 * The tags a row shows: the ticket's, then its contact's (the contact drawer tags the
 * contact), each once. The contact's come with the `contact` event, so the row follows
 * the drawer live.
 */
export function rowTags(ticket: Pick<Ticket, 'tags' | 'contact'>): Ticket['tags'] {
  const own = ticket.tags ?? [];
  const ids = new Set(own.map((t) => t.id));
  return [...own, ...(ticket.contact?.tags ?? []).filter((t) => !ids.has(t.id))];
}

/** A message body as one line (line breaks become spaces). */
export const oneLine = (text: string) => text.replace(/\s*\n+\s*/g, ' ').trim();

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * When a row was last touched, short: 'now' under a minute, minutes and hours
 * ago within the day ('5 min', '3 h'), 'yesterday', else dd/MM/yyyy.
 */
export type RowTime =
  | { kind: 'now' }
  | { kind: 'minutes'; n: number }
  | { kind: 'hours'; n: number; clock: string }
  | { kind: 'yesterday'; clock: string }
  | { kind: 'date'; date: string };

export function rowTime(value: string, now: Date): RowTime | null {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  const clock = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const diffMin = Math.floor((now.getTime() - d.getTime()) / 60_000);
  if (diffMin < 1) return { kind: 'now' };
  if (diffMin < 60) return { kind: 'minutes', n: diffMin };
  const sameDay = d.toDateString() === now.toDateString();
  if (sameDay) return { kind: 'hours', n: Math.floor(diffMin / 60), clock };
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (d.toDateString() === yesterday.toDateString()) return { kind: 'yesterday', clock };
  return { kind: 'date', date: `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}` };
}

/** Black or white, whichever reads better on a `#rrggbb` background (queue and tag chips). */
export function readableTextColor(background: string | null | undefined): '#000000' | '#ffffff' {
  const m = /^#?([0-9a-f]{6})$/i.exec(background?.trim() ?? '');
  if (!m) return '#ffffff';
  // By WCAG contrast, as the theme does: a brightness cut-off left some mid tones under AA.
  return readableTextOn(`#${m[1]}`) === '#FFFFFF' ? '#ffffff' : '#000000';
}

/** A row's last message: one line; a shared contact card (vCard) shows as its name. */
export function lastMessagePreview(text: string | null | undefined): { text: string; contactCard: boolean } {
  const body = text ?? '';
  if (/^BEGIN:VCARD/i.test(body.trim())) {
    const name = /^FN:(.*)$/im.exec(body)?.[1]?.trim();
    return { text: name || 'vCard', contactCard: true };
  }
  // WhatsApp marks (*bold*, _italic_) are shown by the conversation; a one-line preview shows the words.
  return { text: oneLine(stripWhatsappMarkup(body)), contactCard: false };
}
