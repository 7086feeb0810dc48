/** A spreadsheet read in the browser: its rows as text (row 1 the header) and the file the server gets. */
export interface SheetPreview {
  fileName: string;
  rows: string[][];
  /** What is uploaded: the file itself, or an .xls re-written as .xlsx (the server reads .xlsx, .csv and .txt). */
  upload: { blob: Blob; name: string };
}

const isLegacyXls = (name: string) => /\.xls$/i.test(name);

/** Reads the first sheet with SheetJS (loaded on first use); numbers stay as typed so `+55 …` survives. Throws on an unreadable file. */
export async function readSheet(file: File): Promise<SheetPreview> {
  const XLSX = await import('xlsx');
  const workbook = XLSX.read(await file.arrayBuffer(), { type: 'array', raw: true, dense: true });
  const name = workbook.SheetNames[0];
  const sheet = name ? workbook.Sheets[name] : undefined;
  if (!sheet) throw new Error('no sheet');
  const rows = XLSX.utils
    .sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: true })
    .map((row) => row.map((cell) => String(cell ?? '').trim()));
  if (rows.length === 0) throw new Error('empty sheet');
  const upload = isLegacyXls(file.name)
    ? { blob: new Blob([XLSX.write(workbook, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer]), name: file.name.replace(/\.xls$/i, '.xlsx') }
    : { blob: file, name: file.name };
  return { fileName: file.name, rows, upload };
}

/** The data rows that hold anything, as spreadsheet row numbers (the header is row 1). */
export function dataRowNumbers(rows: string[][]): number[] {
  return rows.flatMap((row, index) => (index > 0 && row.some((cell) => cell !== '') ? [index + 1] : []));
}
