import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { crc32, createDeflateRaw } from 'node:zlib';

/**
 * A one-sheet .xlsx written as it goes: the sheet's XML is built as text per batch of rows and
 * deflated straight into the zip on `out` (entries with data descriptors, so nothing waits for a
 * size), with backpressure end to end: a piece of rows is taken only when deflate and `out` have room.
 * exceljs' WorkbookWriter built a Row and a Cell object per value and handed its XML to the zip
 * without waiting, which cost the report export most of its time and memory (docs/BENCHMARKS.md).
 * Inline strings only (no shared-string table, no styles): what a data export needs.
 */

export type XlsxCell = string | number | null | undefined;

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const staticParts = (sheetName: string): [string, string][] => [
  [
    '[Content_Types].xml',
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
  ],
  ['_rels/.rels', `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
  [
    'xl/workbook.xml',
    `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ],
  ['xl/_rels/workbook.xml.rels', `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`],
];

// Characters XML 1.0 cannot carry (control characters other than tab, newline, carriage return) are dropped.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
function escapeXml(text: string): string {
  return text.replace(INVALID_XML, '').replace(/[&<>"]/g, (c) => ENTITIES[c]!);
}

/** Column letters of a 0-based index (A … Z, AA …). */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

interface ZipEntry {
  name: Buffer;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
}

/** The zip container on `out` (deflate, data descriptors, UTF-8 names); `offset` counts what was written. */
class ZipWriter {
  private offset = 0;
  private readonly entries: ZipEntry[] = [];
  private readonly time: number;
  private readonly date: number;
  /** Aborted when `out` closes (the client went away): every wait gives up. */
  private readonly gone = new AbortController();

  constructor(private readonly out: Writable) {
    out.once('close', () => this.gone.abort());
    const now = new Date();
    this.time = (now.getHours() << 11) | (now.getMinutes() << 5) | Math.floor(now.getSeconds() / 2);
    this.date = ((now.getFullYear() - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate();
  }

  private async write(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    if (!this.out.write(chunk)) await once(this.out, 'drain', { signal: this.gone.signal });
  }

  /** Starts an entry; `feed` writes its content through the returned function, which waits for room. */
  async entry(fileName: string, feed: (write: (data: string | Buffer) => Promise<void>) => Promise<void>): Promise<void> {
    const name = Buffer.from(fileName, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0808, 6); // sizes in the data descriptor; UTF-8 name
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(this.time, 10);
    header.writeUInt16LE(this.date, 12);
    header.writeUInt16LE(name.length, 26);
    const entry: ZipEntry = { name, offset: this.offset, crc: 0, compressed: 0, size: 0 };
    await this.write(Buffer.concat([header, name]));

    const deflate = createDeflateRaw({ level: 1 });
    const stop = () => deflate.destroy(new Error('the client went away'));
    this.gone.signal.addEventListener('abort', stop, { once: true });
    const drained = (async () => {
      for await (const chunk of deflate as AsyncIterable<Buffer>) {
        entry.compressed += chunk.length;
        await this.write(chunk);
      }
    })();
    await feed(async (piece) => {
      const data = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
      entry.crc = crc32(data, entry.crc);
      entry.size += data.length;
      if (!deflate.write(data)) await once(deflate, 'drain');
    });
    deflate.end();
    await drained;
    this.gone.signal.removeEventListener('abort', stop);

    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc, 4);
    descriptor.writeUInt32LE(entry.compressed, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    await this.write(descriptor);
    this.entries.push(entry);
  }

  /** A small entry written whole. */
  async file(fileName: string, text: string): Promise<void> {
    await this.entry(fileName, (write) => write(text));
  }

  /** The central directory and its end record. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const e of this.entries) {
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(20, 4);
      record.writeUInt16LE(20, 6);
      record.writeUInt16LE(0x0808, 8);
      record.writeUInt16LE(8, 10);
      record.writeUInt16LE(this.time, 12);
      record.writeUInt16LE(this.date, 14);
      record.writeUInt32LE(e.crc, 16);
      record.writeUInt32LE(e.compressed, 20);
      record.writeUInt32LE(e.size, 24);
      record.writeUInt16LE(e.name.length, 28);
      record.writeUInt32LE(e.offset, 42);
      await this.write(Buffer.concat([record, e.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
  }
}

/** One row's XML: strings inline, numbers as values, empty cells left out (the export's rows are built alike by PostgreSQL, export.ts). */
export function rowXml(index: number, cells: readonly XlsxCell[]): string {
  let xml = `<row r="${index}">`;
  cells.forEach((cell, column) => {
    if (cell === null || cell === undefined || cell === '') return;
    const ref = `${columnName(column)}${index}`;
    xml +=
      typeof cell === 'number'
        ? `<c r="${ref}"><v>${cell}</v></c>`
        : `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(cell)}</t></is></c>`;
  });
  return `${xml}</row>`;
}

/**
 * Writes the workbook with one sheet named `sheetName` to `out`: the header row, then each piece of row XML
 * `rows` yields (text or UTF-8 bytes; rows numbered from 2 on, in order), each written when deflate and `out` have room, so memory
 * holds about one piece. The caller ends `out`.
 */
export async function writeXlsxSheet(out: Writable, sheetName: string, header: readonly string[], rows: AsyncIterable<string | Buffer>): Promise<void> {
  const zip = new ZipWriter(out);
  for (const [name, text] of staticParts(sheetName)) await zip.file(name, text);
  await zip.entry('xl/worksheets/sheet1.xml', async (write) => {
    await write(`${XML_HEAD}<worksheet xmlns="${MAIN_NS}"><sheetData>${rowXml(1, header)}`);
    for await (const xml of rows) await write(xml);
    await write('</sheetData></worksheet>');
  });
  await zip.finish();
}
