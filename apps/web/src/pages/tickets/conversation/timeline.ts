import type { InfiniteData } from '@tanstack/react-query';
import type { Message } from '@balcao/contracts';

/** One page of `GET /messages/{ticketId}`: oldest → newest; page N+1 is older than page N. */
export interface MessagesPage {
  messages: Message[];
  count: number;
  hasMore: boolean;
}

/** The whole loaded conversation, oldest first: older pages go before newer ones. */
export function mergePages(pages: readonly MessagesPage[]): Message[] {
  const seen = new Set<number>();
  const out: Message[] = [];
  for (let i = pages.length - 1; i >= 0; i--) {
    for (const m of pages[i]?.messages ?? []) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      out.push(m);
    }
  }
  return out;
}

/** A live `create`: appended to the newest page (page 1) unless it is already there. */
export function appendMessage(data: InfiniteData<MessagesPage> | undefined, message: Message): InfiniteData<MessagesPage> | undefined {
  if (!data || data.pages.length === 0) return data;
  if (data.pages.some((p) => p.messages.some((m) => m.id === message.id))) return replaceMessage(data, message);
  const [first, ...rest] = data.pages;
  if (!first) return data;
  return { ...data, pages: [{ ...first, messages: [...first.messages, message], count: first.count + 1 }, ...rest] };
}

/**
 * A live `update` (edit, delete, ack): replaces the message where it is; unknown ids change nothing.
 * Acks only move forward: a send's HTTP answer (read at ack 0) may arrive after the socket's ack update.
 */
export function replaceMessage(data: InfiniteData<MessagesPage> | undefined, message: Message): InfiniteData<MessagesPage> | undefined {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((p) => {
    if (!p.messages.some((m) => m.id === message.id)) return p;
    changed = true;
    return { ...p, messages: p.messages.map((m) => (m.id === message.id ? { ...m, ...message, ack: Math.max(m.ack, message.ack) } : m)) };
  });
  return changed ? { ...data, pages } : data;
}

/** Local calendar day of a timestamp, as a sortable key (yyyy-mm-dd). */
export function dayKey(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * One row of the list: a message, with the date separator drawn above it when
 * it opens a day. The separator lives inside the row so every row is keyed by
 * a message: loading an older page keeps the rows in view where they were.
 */
export interface TimelineItem {
  key: string;
  message: Message;
  /** The day (yyyy-mm-dd) this message opens, else null. */
  day: string | null;
  /** First of a run of messages from the same side (within its day). */
  first: boolean;
}

export function buildTimeline(messages: readonly Message[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  let lastDay: string | null = null;
  let lastSide: boolean | null = null;
  for (const m of messages) {
    const day = dayKey(m.createdAt);
    const opens = day !== lastDay;
    items.push({ key: `msg-${m.id}`, message: m, day: opens ? day : null, first: opens || lastSide !== m.fromMe });
    lastDay = day;
    lastSide = m.fromMe;
  }
  return items;
}

/** The separator's text: 'today', 'yesterday' or the date (dd/MM/yyyy). */
export function dayLabel(iso: string, now: Date): { kind: 'today' | 'yesterday' } | { kind: 'date'; text: string } {
  const day = dayKey(iso);
  if (day === dayKey(now.toISOString())) return { kind: 'today' };
  const y = new Date(now);
  y.setDate(y.getDate() - 1);
  if (day === dayKey(y.toISOString())) return { kind: 'yesterday' };
  const [yy, mm, dd] = day.split('-');
  return { kind: 'date', text: `${dd}/${mm}/${yy}` };
}

/** HH:mm of a message, local time. */
export function messageTime(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}
