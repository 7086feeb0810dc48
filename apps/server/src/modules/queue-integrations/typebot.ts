import { z } from 'zod';
import type { AppContext } from '../../http/context.js';
import type { TicketRow } from '../tickets/presenter.js';
import { setTypebotSession } from '../conversations/commands/automation-integ.js';
import type { QueueIntegrationRow } from './queries.js';
import { RemoteError, type IntegrationReply } from './webhook.js';

/**
 * Typebot's public chat API (docs/integrations.md): `POST {urlN8N}/api/v1/typebots/{slug}/startChat`
 * opens a session with the customer's first message, `POST {urlN8N}/api/v1/sessions/{id}/continueChat`
 * relays the next ones. The bot's text, media and choices come back as replies.
 */

const richNode: z.ZodType<{ text?: string; children?: unknown[] }> = z.object({ text: z.string().optional(), children: z.array(z.lazy(() => richNode)).optional() }).loose();
const chatMessage = z
  .object({
    type: z.string(),
    content: z.object({ richText: z.array(richNode).optional(), markdown: z.string().optional(), url: z.string().optional() }).loose().optional(),
  })
  .loose();
const chatAnswer = z
  .object({
    sessionId: z.string().optional(),
    messages: z.array(chatMessage).optional().default([]),
    input: z.object({ type: z.string(), items: z.array(z.object({ content: z.string().optional() }).loose()).optional() }).loose().optional(),
  })
  .loose();
type ChatAnswer = z.output<typeof chatAnswer>;

const textOf = (nodes: { text?: string; children?: unknown[] }[]): string =>
  nodes.map((n) => (n.text ?? '') + (n.children ? textOf(n.children as typeof nodes) : '')).join('');
const blocksOf = (nodes: { text?: string; children?: unknown[] }[]) => nodes.map((n) => textOf([n])).join('\n');

async function post(url: string, body: unknown, timeoutMs: number): Promise<ChatAnswer> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new RemoteError(`typebot: no answer: ${(err as Error).message}`);
  }
  const raw = await res.json().catch(() => undefined);
  if (!res.ok) throw new RemoteError(`typebot answered ${res.status}`);
  const parsed = chatAnswer.safeParse(raw);
  if (!parsed.success) throw new RemoteError('typebot answered an unexpected body');
  return parsed.data;
}

/** Texts, media and the choices (numbered) of one answer. */
function repliesOf(answer: ChatAnswer): IntegrationReply[] {
  const replies: IntegrationReply[] = [];
  for (const m of answer.messages) {
    if (m.type === 'text') {
      const text = m.content?.markdown ?? blocksOf(m.content?.richText ?? []);
      if (text.trim()) replies.push({ text });
    } else if (['image', 'video', 'audio', 'file'].includes(m.type) && m.content?.url) {
      replies.push({ mediaUrl: m.content.url });
    }
  }
  const choices = answer.input?.type === 'choice input' ? (answer.input.items ?? []).map((item, i) => `${i + 1} - ${item.content ?? ''}`) : [];
  if (choices.length > 0) replies.push({ text: choices.join('\n') });
  return replies;
}

export interface TypebotTurn {
  replies: IntegrationReply[];
  /** The keyword to finish was typed: a human takes over. */
  end: boolean;
}

const same = (a: string | null, b: string) => !!a && a.trim().toLowerCase() === b.trim().toLowerCase();

/** One customer message through the ticket's Typebot session (started, continued, restarted or ended). */
export async function askTypebot(ctx: AppContext, integration: QueueIntegrationRow, ticket: TicketRow, text: string): Promise<TypebotTurn> {
  const base = (integration.urlN8N ?? '').replace(/\/+$/, '');
  if (!base || !integration.typebotSlug) throw new RemoteError('typebot: no urlN8N or slug');
  const { timeoutMs } = ctx.config.integrations;
  if (same(integration.typebotKeywordFinish, text)) {
    await setTypebotSession(ctx, ticket, null);
    return { replies: [], end: true };
  }
  if (same(integration.typebotKeywordRestart, text)) {
    await setTypebotSession(ctx, ticket, null);
    return { replies: integration.typebotRestartMessage ? [{ text: integration.typebotRestartMessage }] : [], end: false };
  }
  const idleSince = ticket.typebotSessionAt?.getTime() ?? 0;
  const expired = integration.typebotExpires > 0 && Date.now() - idleSince > integration.typebotExpires * 60_000;
  if (ticket.typebotSessionId && !expired) {
    const answer = await post(`${base}/api/v1/sessions/${encodeURIComponent(ticket.typebotSessionId)}/continueChat`, { message: { type: 'text', text } }, timeoutMs);
    await setTypebotSession(ctx, ticket, ticket.typebotSessionId);
    const replies = repliesOf(answer);
    // Typebot answers no message, only its input again, to a reply that input does not accept.
    const unknown = answer.messages.length === 0 && answer.input && integration.typebotUnknownMessage;
    return { replies: unknown ? [{ text: integration.typebotUnknownMessage! }, ...replies] : replies, end: false };
  }
  const answer = await post(`${base}/api/v1/typebots/${encodeURIComponent(integration.typebotSlug)}/startChat`, { message: { type: 'text', text }, isStreamEnabled: false }, timeoutMs);
  if (!answer.sessionId) throw new RemoteError('typebot: startChat answered no sessionId');
  await setTypebotSession(ctx, ticket, answer.sessionId);
  return { replies: repliesOf(answer), end: false };
}
