/** Spec 2 §5: an empty or whitespace-only message is not sent. */
export function isBlank(text: string | null | undefined): boolean {
  return !text || text.trim().length === 0;
}

/**
 * Spec 2 §6 and API-CONTRACT: with the signature on, the client itself writes
 * the attendant's name in bold on the first line; the server adds none.
 */
export function withSignature(body: string, userName: string, signed: boolean): string {
  return signed ? `*${userName}:*\n${body}` : body;
}

/** An own message's signature, so an edit shows the text alone and keeps the signature on save. */
export function splitSignature(body: string, userName: string): { signed: boolean; text: string } {
  const prefix = withSignature('', userName, true);
  return body.startsWith(prefix) ? { signed: true, text: body.slice(prefix.length) } : { signed: false, text: body };
}

/** Spec 2 §9: quick-reply suggestions are triggered by a leading '/', their labels cut at 90 characters. */
export const QUICK_REPLY_LABEL_MAX = 90;

export interface QuickReply {
  id: number;
  shortcode: string;
  message: string;
  mediaUrl?: string | null;
  mediaName?: string | null;
}

/** The quick replies whose shortcode contains what follows the '/' (all of them for a bare '/'); null when not triggered. */
export function quickReplyMatches<T extends QuickReply>(list: readonly T[], text: string): T[] | null {
  if (!text.startsWith('/')) return null;
  const term = text.slice(1).toLowerCase();
  if (/\s/.test(term)) return null;
  return list.filter((q) => q.shortcode.toLowerCase().includes(term));
}

export function quickReplyLabel(q: Pick<QuickReply, 'shortcode' | 'message'>): string {
  const full = `${q.shortcode} - ${q.message}`;
  return full.length > QUICK_REPLY_LABEL_MAX ? `${full.slice(0, QUICK_REPLY_LABEL_MAX)}...` : full;
}

/** The contact card sent by 'send contact': the server builds the vCard from name and number. */
export function vCardOf(contact: { id: number; name: string; number: string }): { id: number; name: string; number: string } {
  return { id: contact.id, name: contact.name, number: contact.number.replace(/\D/g, '') };
}
