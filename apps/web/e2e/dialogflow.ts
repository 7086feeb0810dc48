import type { FakeIntent } from '../../server/test/fakes/dialogflow-server';
import { GRAPH_ORIGIN } from './meta-env';

/** The service-account key the fake Dialogflow (served beside the fake Graph API) accepts: an integration's jsonContent. */
export async function fakeDialogflowKey(): Promise<string> {
  const res = await fetch(`${GRAPH_ORIGIN}/dialogflow/__key`);
  if (!res.ok) throw new Error(`fake Dialogflow answered HTTP ${res.status}`);
  return res.text();
}

/** Teaches the fake agent what to answer to a text (matched lowercase). */
export async function teachIntent(text: string, intent: FakeIntent): Promise<void> {
  const res = await fetch(`${GRAPH_ORIGIN}/dialogflow/__intents`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ [text]: intent }) });
  if (!res.ok) throw new Error(`fake Dialogflow answered HTTP ${res.status}`);
}
