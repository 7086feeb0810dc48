/** A run of message text with WhatsApp's inline marks (*bold*, _italic_, ~strike~) or a link. */
export interface TextRun {
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  href?: string;
}

const URL_RE = /(https?:\/\/[^\s<]+[^\s<.,;:!?)\]'"])/g;
const MARK_RE = /([*_~])([^*_~\n]+?)\1/g;
const MARKS: Record<string, keyof Pick<TextRun, 'bold' | 'italic' | 'strike'>> = { '*': 'bold', _: 'italic', '~': 'strike' };

function marked(text: string): TextRun[] {
  const runs: TextRun[] = [];
  let last = 0;
  for (const m of text.matchAll(MARK_RE)) {
    const at = m.index ?? 0;
    // A mark opens at a word boundary only (so snake_case_words stay plain).
    const before = at > 0 ? text[at - 1] : ' ';
    if (before && /\w/.test(before)) continue;
    if (at > last) runs.push({ text: text.slice(last, at) });
    runs.push({ text: m[2] ?? '', [MARKS[m[1] ?? '*'] ?? 'bold']: true });
    last = at + m[0].length;
  }
  if (last < text.length) runs.push({ text: text.slice(last) });
  return runs;
}

/** Splits a message body into plain, marked and link runs. */
export function richText(body: string): TextRun[] {
  const runs: TextRun[] = [];
  let last = 0;
  for (const m of body.matchAll(URL_RE)) {
    const at = m.index ?? 0;
    if (at > last) runs.push(...marked(body.slice(last, at)));
    runs.push({ text: m[0], href: m[0] });
    last = at + m[0].length;
  }
  if (last < body.length) runs.push(...marked(body.slice(last)));
  return runs;
}
