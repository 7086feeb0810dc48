import type { Message, Ticket } from '@balcao/contracts';
import type { jsPDF } from 'jspdf';
import { fetchAllMessagePages } from './conversationQueries';
import { formatDate } from '../../../components/format';
import { paginate, PDF_CONTENT_WIDTH, PDF_LINE_MM, PDF_PAGE } from './pdfLayout';
import { loadEmojiFont, pdfTextWriter } from './pdfEmoji';
import { mergePages, messageTime } from './timeline';

/** 20 messages a page: 250 pages are more than 100 PDF pages can hold. */
const MAX_MESSAGE_PAGES = 250;
/** The text baseline sits this far below a line's top. */
const BASELINE_MM = 3.8;

export interface PdfTexts {
  title: string;
  subtitle: string;
  /** The side label of a message ('Atendente' / the contact's name) and its body (media as a label). */
  author: (m: Message) => string;
  body: (m: Message) => string;
  fileName: string;
}

/** One message as printed: time, side and body. */
export function pdfLine(m: Message, texts: Pick<PdfTexts, 'author' | 'body'>): string {
  return `[${formatDate(m.createdAt)} ${messageTime(m.createdAt)}] ${texts.author(m)}: ${texts.body(m)}`;
}

/** Spec 2 §9: the conversation as a text PDF, A4, 10 mm margin, at most 100 pages. */
export async function exportConversationPdf(ticket: Ticket, texts: PdfTexts): Promise<void> {
  const [{ jsPDF }, pages, emojiFont] = await Promise.all([
    import('jspdf'),
    fetchAllMessagePages(ticket.id, MAX_MESSAGE_PAGES),
    loadEmojiFont(),
  ]);
  const doc = new jsPDF({ unit: 'mm', format: 'a4' });
  writeConversationPdf(doc, mergePages(pages), texts, emojiFont);
  doc.save(texts.fileName);
}

/** Lays the conversation out on `doc`; emoji print in `emojiFont` when it was loaded. */
export function writeConversationPdf(doc: jsPDF, messages: readonly Message[], texts: Omit<PdfTexts, 'fileName'>, emojiFont: ArrayBuffer | null): void {
  const writer = pdfTextWriter(doc, emojiFont);
  const x = PDF_PAGE.margin;

  doc.setFontSize(14);
  writer.draw(writer.prepare(texts.title), x, x + 5, 'bold');
  doc.setFontSize(9);
  doc.setTextColor(100);
  writer.draw(writer.prepare(texts.subtitle), x, x + 11, 'normal');
  doc.setDrawColor(200);
  doc.line(x, x + 14, PDF_PAGE.width - x, x + 14);
  doc.setFontSize(10);

  const blocks = messages.map((m) => writer.wrap(writer.prepare(pdfLine(m, texts)), PDF_CONTENT_WIDTH));
  const { placements } = paginate(
    blocks.map((b) => b.length),
    x + 18,
  );
  let page = 0;
  for (const p of placements) {
    while (page < p.page) {
      doc.addPage();
      page++;
    }
    const m = messages[p.block];
    const lines = blocks[p.block] ?? [];
    // Attendant lines in dark green, private notes in amber, the contact's in black.
    if (m?.isPrivate) doc.setTextColor(138, 109, 0);
    else if (m?.fromMe) doc.setTextColor(0, 92, 75);
    else doc.setTextColor(20);
    for (let i = p.fromLine; i < p.toLine; i++) {
      writer.draw(lines[i] ?? '', x, p.y + (i - p.fromLine) * PDF_LINE_MM + BASELINE_MM, 'normal');
    }
  }
}
