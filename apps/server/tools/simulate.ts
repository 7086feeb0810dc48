/**
 * Plays the customer without a phone: posts Meta webhook events, signed with the
 * app secret exactly as Meta signs them, to a running server (loopback only).
 *
 *   npm run simulate -- --to <Page id | IG account id> --from <PSID> "text"
 *   npm run simulate -- --to 1000001 --from 2000001 --burst 50 "hello"
 *   npm run simulate -- --to 1700001 --instagram --from 2700001 "oi"
 *   npm run simulate -- --fake-graph 8099      (a local stand-in for the Graph API, see docs/channels.md)
 *
 * Options: --api (default API_URL or http://localhost:8080), --secret (default
 * FACEBOOK_APP_SECRET), --senders K (spread a burst over K customers).
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { signBody } from '../src/channels/meta/signature.js';

export interface SimulatedMessage {
  accountId: string;
  from: string;
  text: string;
  instagram?: boolean;
  mid?: string;
}

/** A one-message webhook body as Meta posts it (Messenger `page` or `instagram` object). */
export function webhookBody(m: SimulatedMessage): { body: string; mid: string } {
  const mid = m.mid ?? `m_sim_${randomBytes(12).toString('hex')}`;
  const now = Date.now();
  const body = JSON.stringify({
    object: m.instagram ? 'instagram' : 'page',
    entry: [{ id: m.accountId, time: now, messaging: [{ sender: { id: m.from }, recipient: { id: m.accountId }, timestamp: now, message: { mid, text: m.text } }] }],
  });
  return { body, mid };
}

/** Posts one signed event; resolves with the HTTP status and the message id it carried. */
export async function postSimulated(api: string, secret: string, m: SimulatedMessage): Promise<{ status: number; mid: string }> {
  const { body, mid } = webhookBody(m);
  const res = await fetch(`${api}/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(secret, body) },
    body,
  });
  await res.arrayBuffer();
  return { status: res.status, mid };
}

export function assertLoopback(api: string): void {
  const host = new URL(api).hostname;
  if (!['localhost', '127.0.0.1', '[::1]', '::1'].includes(host)) throw new Error(`simulate only posts to loopback, not ${host}`);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      to: { type: 'string' },
      from: { type: 'string', default: '2000001' },
      api: { type: 'string', default: process.env.API_URL ?? 'http://localhost:8080' },
      secret: { type: 'string', default: process.env.FACEBOOK_APP_SECRET },
      burst: { type: 'string', default: '1' },
      senders: { type: 'string', default: '1' },
      instagram: { type: 'boolean', default: false },
      'fake-graph': { type: 'string' },
    },
  });
  if (values['fake-graph'] !== undefined) {
    const { startFakeGraph } = await import('./fake-graph.js');
    const url = await startFakeGraph(Number(values['fake-graph'] || 0));
    console.log(`Fake Graph API on ${url} — start the server with GRAPH_API_URL=${url} (Ctrl-C to stop)`);
    return;
  }
  const text = positionals.join(' ') || 'Olá! (simulated)';
  if (!values.to) throw new Error('--to <Page id | IG account id> is required (GET /whatsapp shows facebookPageId / instagramAccountId)');
  if (!values.secret) throw new Error('--secret or FACEBOOK_APP_SECRET is required (the server checks X-Hub-Signature-256 with it)');
  assertLoopback(values.api);
  const burst = Math.max(1, Number(values.burst));
  const senders = Math.max(1, Number(values.senders));
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: burst }, (_, i) =>
      postSimulated(values.api, values.secret!, {
        accountId: values.to!,
        from: senders > 1 ? `${values.from}${i % senders}` : values.from,
        text: burst > 1 ? `${text} #${i + 1}` : text,
        instagram: values.instagram,
      }),
    ),
  );
  const ms = performance.now() - started;
  const byStatus = new Map<number, number>();
  for (const r of results) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
  console.log(`${burst} event(s) in ${ms.toFixed(0)} ms — ${[...byStatus].map(([s, n]) => `${n}× HTTP ${s}`).join(', ')}`);
  if (byStatus.size !== 1 || !byStatus.has(200)) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
