import { describe, expect, it } from 'vitest';
import { pdfLine } from './exportPdf';
import { fakeMessage } from './testMessages';

describe('pdfLine', () => {
  it('prints time, side and body of a message', () => {
    const m = fakeMessage({ id: 1, body: 'Olá', createdAt: new Date(2026, 10, 22, 7, 5).toISOString() });
    const line = pdfLine(m, { author: (x) => (x.fromMe ? 'Atendente' : 'Maria'), body: (x) => x.body });
    expect(line).toBe('[22/11/2026 07:05] Maria: Olá');
  });
});
