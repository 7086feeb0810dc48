import ExcelJS from 'exceljs';
import { Readable } from 'node:stream';
import { AppError } from '../http/errors.js';

/**
 * Spreadsheets uploaded to the server (contact import, contact lists): .xlsx through
 * exceljs, .csv/.txt as text with `,`, `;` or tab between cells. The file's bytes decide,
 * not its name or declared type; anything else (an old .xls, an image, broken zip) is a
 * 400 ERR_INVALID_SPREADSHEET. Cells come back as trimmed text, so `+55 …` numbers and
 * leading zeros survive.
 */

/** The rows of the first sheet, top to bottom; each row its cells left to right as text. */
export type SheetRows = string[][];

const invalid = () => new AppError('ERR_INVALID_SPREADSHEET', 400, 'expected an .xlsx, .csv or .txt spreadsheet');

const isZip = (data: Buffer) => data.length > 4 && data[0] === 0x50 && data[1] === 0x4b && data[2] === 0x03 && data[3] === 0x04;

export async function readSpreadsheet(data: Buffer): Promise<SheetRows> {
  if (data.length === 0) throw invalid();
  return isZip(data) ? readXlsx(data) : readCsv(data);
}

/** A cell's text: formulas give their result, rich text and links their text, numbers their digits. */
function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'string') return value.trim();
  return cell.text.trim();
}

async function readXlsx(data: Buffer): Promise<SheetRows> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw invalid();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw invalid();
  const rows: SheetRows = [];
  sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = cellText(cell);
    });
    rows[rowNumber - 1] = Array.from(cells, (c) => c ?? '');
  });
  return Array.from(rows, (r) => r ?? []);
}

/** The separator the header line uses most: `;` (Brazilian Excel), tab, or `,`. */
function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/));
  const counts = [';', '\t', ','].map((d) => [d, header.split(d).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

/** A control character other than tab and line breaks means a binary file, not text. */
function isBinary(head: string): boolean {
  for (let i = 0; i < head.length; i++) {
    const code = head.charCodeAt(i);
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c) return true;
  }
  return false;
}

async function readCsv(data: Buffer): Promise<SheetRows> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    // Not UTF-8: Excel's "CSV" in Windows-1252, unless it is binary.
    text = data.toString('latin1');
  }
  if (isBinary(text.slice(0, 64 * 1024))) throw invalid();
  const workbook = new ExcelJS.Workbook();
  let sheet: ExcelJS.Worksheet;
  try {
    sheet = await workbook.csv.read(Readable.from([text.replace(/^\uFEFF/, '')]), {
      parserOptions: { delimiter: delimiterOf(text) },
      // Keep every cell as typed: no dates, no numbers.
      map: (value: unknown) => value,
    });
  } catch {
    throw invalid();
  }
  const rows: SheetRows = [];
  sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    const values = Array.isArray(row.values) ? row.values.slice(1) : [];
    rows[rowNumber - 1] = values.map((v) => (v === null || v === undefined ? '' : String(v).trim()));
  });
  return Array.from(rows, (r) => r ?? []);
}
