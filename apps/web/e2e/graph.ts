import { GRAPH_ORIGIN } from './meta-env';

/** A Send API call as the fake Graph API received it. */
export interface GraphSend {
  recipient?: { id?: string };
  messaging_type?: string;
  message?: { text?: string; attachment?: unknown };
  sender_action?: string;
}

/** Every Send API call the fake Graph API received so far (its `GET /__sent`), oldest first. */
export async function graphSends(): Promise<GraphSend[]> {
  const res = await fetch(`${GRAPH_ORIGIN}/__sent`);
  if (!res.ok) throw new Error(`fake Graph answered HTTP ${res.status}`);
  return (await res.json()) as GraphSend[];
}

/** The texts sent to one customer (PSID), oldest first. */
export async function textsSentTo(psid: string): Promise<string[]> {
  return (await graphSends()).filter((s) => s.recipient?.id === psid && s.message?.text !== undefined).map((s) => s.message!.text!);
}
