/** Spec 2 §9: the conversation PDF is A4 with a 10 mm margin and at most 100 pages. */
export const PDF_PAGE = { width: 210, height: 297, margin: 10, maxPages: 100 } as const;
/** Line height (mm) of the 10 pt body text, and the gap between two messages. */
export const PDF_LINE_MM = 5;
export const PDF_GAP_MM = 2;

export const PDF_CONTENT_WIDTH = PDF_PAGE.width - 2 * PDF_PAGE.margin;
const BOTTOM = PDF_PAGE.height - PDF_PAGE.margin;

/** A run of one block's lines printed on one page from `y` (mm). */
export interface Placement {
  block: number;
  page: number;
  y: number;
  fromLine: number;
  toLine: number;
}

/**
 * Lays blocks of `lineCounts[i]` lines top to bottom from `startY` on page 0;
 * a block that does not fit continues on the next page. Stops at the page cap.
 */
export function paginate(lineCounts: readonly number[], startY: number): { placements: Placement[]; pages: number; truncated: boolean } {
  const placements: Placement[] = [];
  let page = 0;
  let y = startY;
  for (let block = 0; block < lineCounts.length; block++) {
    const total = Math.max(1, lineCounts[block] ?? 1);
    let line = 0;
    while (line < total) {
      let fit = Math.floor((BOTTOM - y) / PDF_LINE_MM);
      if (fit <= 0) {
        page++;
        y = PDF_PAGE.margin;
        if (page >= PDF_PAGE.maxPages) return { placements, pages: PDF_PAGE.maxPages, truncated: true };
        fit = Math.floor((BOTTOM - y) / PDF_LINE_MM);
      }
      const take = Math.min(fit, total - line);
      placements.push({ block, page, y, fromLine: line, toLine: line + take });
      line += take;
      y += take * PDF_LINE_MM;
    }
    y += PDF_GAP_MM;
  }
  return { placements, pages: page + 1, truncated: false };
}

/**
 * The built-in PDF fonts cover Latin-1 only: letters beyond it lose their
 * accents (ş → s), anything else (emoji) is dropped.
 */
export function pdfSafe(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code <= 0xff) {
      out += ch;
      continue;
    }
    const base = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    if (base === 'ı') out += 'i';
    else if (base.length > 0 && [...base].every((c) => (c.codePointAt(0) ?? 0) <= 0xff)) out += base;
  }
  return out;
}
