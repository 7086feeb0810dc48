import type { ExternalSendResponse } from '@balcao/contracts';
import { apiUrl } from '../config';
import { ApiError } from './http';

export const MESSAGES_API_PATH = '/api/messages/send';

/** The full address other systems call. */
export const messagesApiUrl = () => `${apiUrl()}${MESSAGES_API_PATH}`;

export interface ExternalSend {
  token: string;
  number: string;
  body: string;
  media: File | null;
}

/**
 * One call of the external API as an integration makes it: authorised by the
 * connection's token (not the user's session), JSON for a text, multipart for a file.
 */
export async function sendThroughApi(input: ExternalSend): Promise<ExternalSendResponse> {
  const headers: Record<string, string> = { Authorization: `Bearer ${input.token.trim()}`, Accept: 'application/json' };
  let body: BodyInit;
  if (input.media) {
    const form = new FormData();
    form.append('number', input.number);
    form.append('body', input.body);
    form.append('medias', input.media);
    body = form;
  } else {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify({ number: input.number, body: input.body });
  }
  const res = await fetch(messagesApiUrl(), { method: 'POST', headers, body });
  const text = await res.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: the raw text is the message.
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data as ExternalSendResponse;
}
