import { describe, expect, it } from 'vitest';
import { paginate, PDF_CONTENT_WIDTH, PDF_LINE_MM, PDF_PAGE, pdfSafe } from './pdfLayout';

const LINES_PER_PAGE = Math.floor((PDF_PAGE.height - 2 * PDF_PAGE.margin) / PDF_LINE_MM);

describe('PDF layout', () => {
  it('is A4 with a 10 mm margin', () => {
    expect(PDF_PAGE).toMatchObject({ width: 210, height: 297, margin: 10, maxPages: 100 });
    expect(PDF_CONTENT_WIDTH).toBe(190);
  });

  it('places blocks one under the other on the first page', () => {
    const { placements, pages, truncated } = paginate([1, 2], 30);
    expect(pages).toBe(1);
    expect(truncated).toBe(false);
    expect(placements[0]).toMatchObject({ block: 0, page: 0, y: 30 });
    expect(placements[1]!.y).toBeCloseTo(30 + PDF_LINE_MM + 2);
  });

  it('continues a long block on the next page from the top margin', () => {
    const { placements, pages } = paginate([LINES_PER_PAGE + 3], PDF_PAGE.margin);
    expect(pages).toBe(2);
    expect(placements).toHaveLength(2);
    expect(placements[0]).toMatchObject({ page: 0, fromLine: 0, toLine: LINES_PER_PAGE });
    expect(placements[1]).toMatchObject({ page: 1, y: PDF_PAGE.margin, fromLine: LINES_PER_PAGE, toLine: LINES_PER_PAGE + 3 });
  });

  it('never goes past 100 pages', () => {
    const { placements, pages, truncated } = paginate(Array.from({ length: 10_000 }, () => 3), PDF_PAGE.margin);
    expect(pages).toBe(100);
    expect(truncated).toBe(true);
    expect(Math.max(...placements.map((p) => p.page))).toBe(99);
    for (const p of placements) expect(p.y + (p.toLine - p.fromLine) * PDF_LINE_MM).toBeLessThanOrEqual(PDF_PAGE.height - PDF_PAGE.margin);
  });

  it('keeps Latin-1 text, strips accents beyond it and drops emoji', () => {
    expect(pdfSafe('Olá, ação')).toBe('Olá, ação');
    expect(pdfSafe('Teşekkürler ığ')).toBe('Tesekkürler ig');
    expect(pdfSafe('ok 👍')).toBe('ok ');
  });
});
