import { z } from 'zod';

/** What an n8n flow or a webhook answers: one `{ text }` / `{ message }`, or a list of `{ text | mediaUrl }` (docs/integrations.md). */
export interface IntegrationReply {
  text?: string;
  mediaUrl?: string;
}

export class RemoteError extends Error {}

const item = z
  .object({ text: z.string().optional(), message: z.string().optional(), mediaUrl: z.url({ protocol: /^https?$/ }).optional() })
  .loose()
  .transform((r): IntegrationReply => ({ text: r.text ?? r.message, mediaUrl: r.mediaUrl }));
const answer = z.union([item, z.array(item).max(20)]);

/** Turns a remote's body into replies; an empty body (or 204) is no reply, anything unreadable is a RemoteError. */
export function parseReplies(raw: string): IntegrationReply[] {
  if (raw.trim() === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new RemoteError('the answer is not JSON');
  }
  const parsed = answer.safeParse(json);
  if (!parsed.success) throw new RemoteError('the answer is not { text } / { message } / [{ text | mediaUrl }]');
  return (Array.isArray(parsed.data) ? parsed.data : [parsed.data]).filter((r) => (r.text && r.text.trim() !== '') || r.mediaUrl);
}

/** POSTs `payload` as JSON and reads the replies, within `timeoutMs`; a non-2xx answer, a timeout or a network error is a RemoteError. */
export async function postJson(url: string, payload: unknown, timeoutMs: number): Promise<IntegrationReply[]> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Balcao-Integration/1' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    throw new RemoteError(`no answer: ${(err as Error).message}`);
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) throw new RemoteError(`answered ${res.status}`);
  return parseReplies(text.slice(0, 1_000_000));
}

/** Downloads a reply's media within the timeout and size limit. */
export async function fetchMedia(url: string, timeoutMs: number, maxBytes: number): Promise<{ data: Buffer; mimetype: string; name: string }> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new RemoteError(`media not fetched: ${(err as Error).message}`);
  }
  if (!res.ok) throw new RemoteError(`media answered ${res.status}`);
  if (Number(res.headers.get('content-length') ?? 0) > maxBytes) throw new RemoteError('media too large');
  const data = Buffer.from(await res.arrayBuffer());
  if (data.length > maxBytes) throw new RemoteError('media too large');
  const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || 'media';
  return { data, mimetype: res.headers.get('content-type') ?? 'application/octet-stream', name };
}
