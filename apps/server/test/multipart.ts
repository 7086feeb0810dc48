import { randomBytes } from 'node:crypto';

type FilePart = { field: string; name: string; type: string; data: Buffer };

/** A multipart/form-data body for `app.inject`: text fields (an array repeats the field), then one file (or several). */
export function multipart(fields: Record<string, string | string[]>, files?: FilePart | FilePart[]) {
  const boundary = `----balcao${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields).flatMap(([n, v]) => (Array.isArray(v) ? v : [v]).map((one) => [n, one] as const))) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files === undefined ? [] : Array.isArray(files) ? files : [files]) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
