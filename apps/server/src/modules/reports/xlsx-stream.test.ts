import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { rowXml, writeXlsxSheet, type XlsxCell } from './xlsx-stream.js';

/** Each batch as one piece of row XML, rows numbered from 2 on (the header is row 1). */
async function* batches(...list: XlsxCell[][][]) {
  let index = 1;
  for (const batch of list) yield batch.map((cells) => rowXml(++index, cells)).join('');
}

async function written(rows: AsyncIterable<string>): Promise<unknown[][]> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await writeXlsxSheet(out, 'Folha & Cia', ['Nome', 'Valor', 'Nota'], rows);
  out.end();
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  const sheet = book.getWorksheet('Folha & Cia');
  expect(sheet).toBeDefined();
  return sheet!.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
}

describe('writeXlsxSheet', () => {
  it('writes a workbook exceljs reads back: header, strings escaped, numbers as numbers, empty cells empty, batches in order', async () => {
    const rows = await written(
      batches(
        [
          ['Ana <&> "Souza"', 10, ' espaços '],
          ['Controle\u0001 removido', null, ''],
        ],
        [['Último', 2.5, 'Ação 😀']],
      ),
    );
    expect(rows).toEqual([
      ['Nome', 'Valor', 'Nota'],
      ['Ana <&> "Souza"', 10, ' espaços '],
      ['Controle removido'],
      ['Último', 2.5, 'Ação 😀'],
    ]);
  });

  it('columns past Z are named AA, AB…', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const wide = Array.from({ length: 30 }, (_, i) => `c${i}`);
    await writeXlsxSheet(out, 'Larga', wide, batches([wide.map((_, i) => i)]));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    expect(book.getWorksheet('Larga')!.getCell('AD2').value).toBe(29);
  });
});
