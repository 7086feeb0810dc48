import type { jsPDF } from 'jspdf';
// Noto Emoji (monochrome, SIL OFL 1.1): a separate ~900 KB asset, fetched only when a conversation is exported.
import emojiFontUrl from '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf?url';
import { pdfSafe } from './pdfLayout';

export const EMOJI_FONT = 'NotoEmoji';
/** Text runs use the built-in Latin-1 font. */
const TEXT_FONT = 'helvetica';
/**
 * A PDF text run has no shaping: joiners, presentation selectors and skin tones
 * would print as separate glyphs, so a family prints as its people, a toned hand as the plain hand.
 */
const unshaped = (cp: number) => cp === 0x200d || cp === 0xfe0e || cp === 0xfe0f || (cp >= 0x1f3fb && cp <= 0x1f3ff);
/** jsPDF reads text one UTF-16 unit at a time: emoji beyond the BMP are printed through Private Use codes. */
const PRIVATE_USE = 0xe000;

/** The emoji font's bytes, or null when it cannot be fetched (the export then leaves emoji out, as before). */
export async function loadEmojiFont(): Promise<ArrayBuffer | null> {
  try {
    const res = await fetch(emojiFontUrl);
    return res.ok ? await res.arrayBuffer() : null;
  } catch {
    return null;
  }
}

/**
 * Code point → glyph id from the font's format 12 cmap, the only one that reaches
 * emoji beyond the BMP (jsPDF reads format 4 only).
 */
export function emojiGlyphs(ttf: ArrayBuffer): Map<number, number> {
  const v = new DataView(ttf);
  const glyphs = new Map<number, number>();
  let cmap = -1;
  for (let i = 0; i < v.getUint16(4); i++) {
    if (v.getUint32(12 + i * 16) === 0x636d6170 /* 'cmap' */) cmap = v.getUint32(12 + i * 16 + 8);
  }
  if (cmap < 0) return glyphs;
  for (let i = 0; i < v.getUint16(cmap + 2); i++) {
    const sub = cmap + v.getUint32(cmap + 4 + i * 8 + 4);
    if (v.getUint16(sub) !== 12) continue;
    for (let g = 0; g < v.getUint32(sub + 12); g++) {
      const at = sub + 16 + g * 12;
      const [start, end, glyph] = [v.getUint32(at), v.getUint32(at + 4), v.getUint32(at + 8)];
      for (let cp = start; cp <= end; cp++) glyphs.set(cp, glyph + cp - start);
    }
    return glyphs;
  }
  return glyphs;
}

function binaryString(bytes: ArrayBuffer): string {
  const view = new Uint8Array(bytes);
  let out = '';
  for (let i = 0; i < view.length; i += 0x8000) out += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return out;
}

/** The parts of jsPDF's font metadata we read (its types say `any`). */
interface StandardFontMetrics {
  Unicode: { widths: Record<string, number>; kerning: Record<string, unknown> };
}
interface EmojiFontMetrics {
  cmap: { unicode: { codeMap: Record<number, number> } };
  /** Advance of a glyph in 1/1000 em. */
  widthOfGlyph(glyph: number): number;
}

export interface PdfTextWriter {
  /** The text as the PDF can print it: Latin-1 for the text font, one code unit per emoji for the emoji font. */
  prepare(text: string): string;
  /** Wraps prepared text to `width` (mm) in the 'normal' text font, emoji at their own width. */
  wrap(prepared: string, width: number): string[];
  /** Prints a prepared line from (x, y), switching font per run of text or emoji. */
  draw(line: string, x: number, y: number, style: 'normal' | 'bold'): void;
}

/** Embeds the emoji font in `doc` (subset at output), with its glyphs beyond jsPDF's reach. */
function registerEmojiFont(doc: jsPDF, ttf: ArrayBuffer): { glyphs: Map<number, number>; metrics: EmojiFontMetrics } {
  doc.addFileToVFS(`${EMOJI_FONT}.ttf`, binaryString(ttf));
  doc.addFont(`${EMOJI_FONT}.ttf`, EMOJI_FONT, 'normal', 'Identity-H');
  doc.setFont(EMOJI_FONT, 'normal');
  return { glyphs: emojiGlyphs(ttf), metrics: doc.getFont().metadata as EmojiFontMetrics };
}

/** Per glyph run fallback: text in the built-in font, emoji in Noto Emoji when it was loaded. */
export function pdfTextWriter(doc: jsPDF, emojiFont: ArrayBuffer | null): PdfTextWriter {
  doc.setFont(TEXT_FONT, 'normal');
  const text = doc.getFont().metadata as StandardFontMetrics;
  // Helvetica's widths (in 1/fof em) plus each emoji unit's, so lines wrap where they really end.
  const widths: Record<string, number> = { ...text.Unicode.widths };
  const emoji = emojiFont ? registerEmojiFont(doc, emojiFont) : null;
  /** Code point → the code unit printed for it. */
  const units = new Map<number, number>();
  let nextPrivate = PRIVATE_USE;

  const unitFor = (cp: number, glyph: number, metrics: EmojiFontMetrics): number => {
    let unit = units.get(cp);
    if (unit === undefined) {
      unit = cp <= 0xffff ? cp : nextPrivate++;
      metrics.cmap.unicode.codeMap[unit] = glyph;
      widths[unit] = (metrics.widthOfGlyph(glyph) / 1000) * (widths.fof ?? 1);
      units.set(cp, unit);
    }
    return unit;
  };

  return {
    prepare(text) {
      let out = '';
      for (const ch of text) {
        const cp = ch.codePointAt(0) ?? 0;
        const glyph = emoji && cp > 0xff ? emoji.glyphs.get(cp) : undefined;
        if (!emoji || glyph === undefined) out += pdfSafe(ch);
        else if (!unshaped(cp)) out += String.fromCharCode(unitFor(cp, glyph, emoji.metrics));
      }
      return out;
    },
    wrap(prepared, width) {
      doc.setFont(TEXT_FONT, 'normal');
      return doc.splitTextToSize(prepared, width, { widths, kerning: text.Unicode.kerning }) as string[];
    },
    draw(line, x, y, style) {
      let cx = x;
      // Prepared text is Latin-1 but for the emoji units.
      for (const run of line.match(/[\u0100-\uffff]+|[^\u0100-\uffff]+/g) ?? []) {
        const emoji = run.charCodeAt(0) > 0xff;
        doc.setFont(emoji ? EMOJI_FONT : TEXT_FONT, emoji ? 'normal' : style);
        doc.text(run, cx, y);
        cx += doc.getTextWidth(run);
      }
    },
  };
}
