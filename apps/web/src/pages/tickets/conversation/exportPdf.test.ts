import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { jsPDF } from 'jspdf';
import { describe, expect, it } from 'vitest';
import { pdfLine, writeConversationPdf } from './exportPdf';
import { EMOJI_FONT, emojiGlyphs, pdfTextWriter } from './pdfEmoji';
import { PDF_CONTENT_WIDTH } from './pdfLayout';
import { fakeMessage } from './testMessages';

describe('pdfLine', () => {
  it('prints time, side and body of a message', () => {
    const m = fakeMessage({ id: 1, body: 'Olá', createdAt: new Date(2026, 10, 22, 7, 5).toISOString() });
    const line = pdfLine(m, { author: (x) => (x.fromMe ? 'Atendente' : 'Maria'), body: (x) => x.body });
    expect(line).toBe('[22/11/2026 07:05] Maria: Olá');
  });
});

/** The TTF the build ships as the emoji font asset. */
function notoEmoji(): ArrayBuffer {
  const file = readFileSync(createRequire(import.meta.url).resolve('@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf'));
  return file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
}

function exportPdf(body: string, emojiFont: ArrayBuffer | null): string {
  const doc = new jsPDF({ unit: 'mm', format: 'a4', compress: false });
  const texts = { title: 'Maria', subtitle: 'Ticket #1', author: () => 'Maria', body: () => body };
  writeConversationPdf(doc, [fakeMessage({ id: 1, body })], texts, emojiFont);
  return doc.output();
}

/** A glyph id as jsPDF writes it in an Identity-H text string. */
const hex = (glyph: number) => glyph.toString(16).padStart(4, '0');

describe('writeConversationPdf', () => {
  it('prints emoji with Noto Emoji glyphs and the text around them in Helvetica', () => {
    const font = notoEmoji();
    const grin = emojiGlyphs(font).get(0x1f600) ?? 0;
    const heart = emojiGlyphs(font).get(0x2764) ?? 0;
    expect(grin).toBeGreaterThan(0);

    const pdf = exportPdf('Obrigado 😀 até logo ❤️', font);

    expect(pdf).toMatch(/\/BaseFont \/NotoEmoji/);
    expect(pdf).toContain('/FontFile2');
    // Both glyphs are drawn from the emoji font (a '?' or nothing would otherwise stand there)…
    expect(pdf).toMatch(new RegExp(`<${hex(grin)}> Tj`));
    expect(pdf).toMatch(new RegExp(`<${hex(heart)}> Tj`));
    // …the heart copies back as itself, and the text runs stay in the text font.
    expect(pdf).toContain(`<${hex(heart)}><2764>`);
    expect(pdf).toMatch(/Obrigado \) Tj/);
    expect(pdf).toMatch(/ até logo \) Tj/);
    const shownText = [...pdf.matchAll(/\((.*?)\) Tj/g)].map((m) => m[1]).join('');
    expect(shownText).not.toContain('?');
  });

  it('without the font still exports, leaving emoji out', () => {
    const pdf = exportPdf('Obrigado 😀', null);
    expect(pdf).not.toContain('NotoEmoji');
    expect(pdf).toMatch(/Obrigado \) Tj/);
  });

  it('wraps a line of emoji at their own width, inside the margins', () => {
    const doc = new jsPDF({ unit: 'mm', format: 'a4', compress: false });
    const writer = pdfTextWriter(doc, notoEmoji());
    doc.setFontSize(10);
    const lines = writer.wrap(writer.prepare('🎉'.repeat(80)), PDF_CONTENT_WIDTH);
    doc.setFont(EMOJI_FONT, 'normal');
    expect(lines.join('')).toHaveLength(80);
    for (const line of lines) expect(doc.getTextWidth(line)).toBeLessThanOrEqual(PDF_CONTENT_WIDTH);
    expect(doc.getTextWidth(lines[0] ?? '')).toBeGreaterThan(PDF_CONTENT_WIDTH - 5);
  });
});
