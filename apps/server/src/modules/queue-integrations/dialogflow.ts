import { randomUUID } from 'node:crypto';
import { JWT } from 'google-auth-library';
import { z } from 'zod';

/**
 * Dialogflow ES `detectIntent` over its REST API, authorised as the integration's service account
 * by google-auth-library. The account signs its own access JWT (`useJWTAccessWithScope`, Google's
 * recommended flow for service accounts), so no token endpoint is called; the API root is
 * `DIALOGFLOW_API_URL` (tests point it at a local fake).
 */

const serviceAccount = z.object({ client_email: z.string().min(1), private_key: z.string().min(1), private_key_id: z.string().optional() });

export interface DetectIntentInput {
  apiUrl: string;
  timeoutMs: number;
  /** The service-account JSON key as pasted in the dialog. */
  jsonContent: string;
  projectName: string;
  language: string;
  sessionId: string;
  text: string;
}

export interface DetectIntentResult {
  /** The fulfilment texts to send back, in order. */
  replies: string[];
  intent: string | null;
  /** The agent ended the conversation (an end-of-conversation intent): a human takes over. */
  endConversation: boolean;
}

export class DialogflowError extends Error {}

const detectIntentAnswer = z.object({
  queryResult: z
    .object({
      fulfillmentText: z.string().optional(),
      fulfillmentMessages: z.array(z.object({ text: z.object({ text: z.array(z.string()).optional() }).optional() }).loose()).optional(),
      intent: z.object({ displayName: z.string().optional(), endInteraction: z.boolean().optional() }).loose().optional(),
      diagnosticInfo: z.record(z.string(), z.unknown()).optional(),
    })
    .loose(),
});

function parseKey(jsonContent: string) {
  let raw: unknown;
  try {
    raw = JSON.parse(jsonContent);
  } catch {
    throw new DialogflowError('jsonContent is not JSON');
  }
  const key = serviceAccount.safeParse(raw);
  if (!key.success) throw new DialogflowError('jsonContent is not a service-account key');
  return key.data;
}

export async function detectIntent(input: DetectIntentInput): Promise<DetectIntentResult> {
  const key = parseKey(input.jsonContent);
  const client = new JWT({
    email: key.client_email,
    key: key.private_key,
    keyId: key.private_key_id,
    scopes: ['https://www.googleapis.com/auth/cloud-platform', 'https://www.googleapis.com/auth/dialogflow'],
  });
  client.useJWTAccessWithScope = true;
  const session = `projects/${encodeURIComponent(input.projectName)}/agent/sessions/${encodeURIComponent(input.sessionId)}`;
  const url = `${input.apiUrl}/v2/${session}:detectIntent`;
  let answer: Response;
  try {
    const headers = await client.getRequestHeaders(url);
    headers.set('content-type', 'application/json');
    answer = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ queryInput: { text: { text: input.text.slice(0, 256), languageCode: input.language } } }),
      signal: AbortSignal.timeout(input.timeoutMs),
    });
  } catch (err) {
    throw new DialogflowError(`detectIntent failed: ${(err as Error).message}`);
  }
  if (!answer.ok) throw new DialogflowError(`detectIntent answered ${answer.status}`);
  const parsed = detectIntentAnswer.safeParse(await answer.json().catch(() => undefined));
  if (!parsed.success) throw new DialogflowError('detectIntent answered an unexpected body');
  const q = parsed.data.queryResult;
  const fromMessages = (q.fulfillmentMessages ?? []).flatMap((m) => m.text?.text ?? []).filter((t) => t.trim() !== '');
  const replies = fromMessages.length > 0 ? fromMessages : q.fulfillmentText ? [q.fulfillmentText] : [];
  const endConversation = q.intent?.endInteraction === true || q.diagnosticInfo?.end_conversation === true;
  return { replies, intent: q.intent?.displayName ?? null, endConversation };
}

export const newSessionId = (): string => randomUUID();
