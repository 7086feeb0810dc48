import { PROMPT_TEXT_VOICE } from '@balcao/contracts';
import { and, asc, desc, eq } from 'drizzle-orm';
import { messages, prompts } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { assertPlanFlag } from '../../../http/plan.js';
import { openSecret } from '../../../secrets.js';
import { complete, synthesise, transcribe, type ChatTurn } from '../../prompts/remote.js';
import type { TicketRow } from '../../tickets/presenter.js';
import { clearPromptHandOver, handPromptTicketToQueue, recordAudioTranscript } from '../commands/automation-prompts.js';
import { queueOutgoing } from '../outbound.js';
import type { InboundContext } from './inbound.js';

/**
 * Step 5 of the inbound pipeline (docs/prompts.md): a pending ticket nobody took, whose
 * queue has a prompt (or whose connection names one), is answered by the model. True when
 * the step handled the message: answered it, or handed the ticket to its queue's people.
 */

/** A customer asking for a person, in their own words (or in the transcript of their audio). */
export const HUMAN_REQUEST = /\b(atendente|human[oa]|pessoa)\b/i;
/** What the model is told to answer when the customer wants a person (Whaticket's wording). */
export const HAND_OVER_MARKER = 'Ação: Transferir para o setor de atendimento';
const HAND_OVER_RULE = `\nSe o cliente pedir para falar com uma pessoa, responda apenas: "${HAND_OVER_MARKER}".`;

type PromptRow = typeof prompts.$inferSelect;

/** The queue's prompt first, else the connection's. */
async function promptFor(ctx: AppContext, c: InboundContext): Promise<PromptRow | undefined> {
  const { ticket, connection } = c;
  const byQueue = ticket.queueId === null ? undefined : and(eq(prompts.companyId, ticket.companyId), eq(prompts.queueId, ticket.queueId));
  const byConnection = connection.promptId === null ? undefined : and(eq(prompts.companyId, ticket.companyId), eq(prompts.id, connection.promptId));
  for (const where of [byQueue, byConnection]) {
    if (!where) continue;
    const [row] = await ctx.db.select().from(prompts).where(where).orderBy(asc(prompts.id)).limit(1);
    if (row) return row;
  }
  return undefined;
}

const hasOpenAi = (ctx: AppContext, companyId: number) =>
  assertPlanFlag(ctx.db, companyId, 'useOpenAi').then(
    () => true,
    () => false,
  );

export async function answerWithPrompt(ctx: AppContext, c: InboundContext): Promise<boolean> {
  let ticket = c.ticket;
  if (ticket.userId !== null || ticket.status !== 'pending') return false;
  const prompt = await promptFor(ctx, c);
  if (!prompt || !(await hasOpenAi(ctx, ticket.companyId))) return false;
  if (ticket.promptHandedOverAt && c.found.reopened) {
    await clearPromptHandOver(ctx, ticket);
    ticket = { ...ticket, promptHandedOverAt: null };
  }
  // Handed over: it waits for the queue's people, and no other bot step takes it back.
  if (ticket.promptHandedOverAt) return true;

  try {
    const apiKey = openSecret(ctx.secrets, prompt.apiKey);
    const history = await conversation(ctx, ticket, prompt, apiKey);
    const said = history.at(-1);
    if (said?.role === 'user' && HUMAN_REQUEST.test(said.content)) return handOver(ctx, ticket, prompt, 'customer asked for a person');
    if (!said) return handOver(ctx, ticket, prompt, 'nothing to answer');

    const turns: ChatTurn[] = [{ role: 'system', content: prompt.prompt + HAND_OVER_RULE }, ...history];
    const answer = await complete(ctx.config.ai, apiKey, turns, { maxTokens: prompt.maxTokens, temperature: prompt.temperature });
    if (!answer) return handOver(ctx, ticket, prompt, 'empty answer');
    if (answer.includes(HAND_OVER_MARKER)) return handOver(ctx, ticket, prompt, 'the model handed over');

    await queueOutgoing(ctx, { companyId: ticket.companyId, ticketId: ticket.id, body: answer });
    if (prompt.voice !== PROMPT_TEXT_VOICE) await sendVoice(ctx, ticket, prompt, answer);
  } catch (err) {
    return handOver(ctx, ticket, prompt, `remote failure: ${err instanceof Error ? err.message : String(err)}`);
  }
  return true;
}

async function handOver(ctx: AppContext, ticket: TicketRow, prompt: PromptRow, why: string): Promise<true> {
  ctx.log.info({ ticketId: ticket.id, promptId: prompt.id, why }, 'prompt hands the ticket to its queue');
  await handPromptTicketToQueue(ctx, ticket, prompt.queueId);
  return true;
}

/**
 * The ticket's last `maxMessages` messages as chat turns (the customer's as `user`, ours as
 * `assistant`), oldest first; the newest customer audio is transcribed for the model (and the transcript kept as its text).
 */
async function conversation(ctx: AppContext, ticket: TicketRow, prompt: PromptRow, apiKey: string): Promise<ChatTurn[]> {
  const rows = await ctx.db
    .select({ id: messages.id, fromMe: messages.fromMe, body: messages.body, mediaType: messages.mediaType, mediaUrl: messages.mediaUrl })
    .from(messages)
    .where(and(eq(messages.ticketId, ticket.id), eq(messages.isPrivate, false), eq(messages.isDeleted, false)))
    .orderBy(desc(messages.id))
    .limit(prompt.maxMessages);
  const latest = rows[0];
  if (latest && !latest.fromMe && latest.mediaType === 'audio' && latest.mediaUrl) {
    const audio = await ctx.storage.read(ticket.companyId, latest.mediaUrl);
    const transcript = await transcribe(ctx.config.ai, apiKey, audio, latest.mediaUrl);
    if (!latest.body.trim() && transcript) await recordAudioTranscript(ctx, ticket.companyId, latest.id, transcript);
    latest.body = transcript;
  }
  return rows
    .reverse()
    .filter((m) => m.body.trim() && m.mediaType !== 'reactionMessage')
    .map((m) => ({ role: m.fromMe ? 'assistant' : 'user', content: m.body }));
}

/** The answer also as a voice note; the text already went, so a failed synthesis is only logged. */
async function sendVoice(ctx: AppContext, ticket: TicketRow, prompt: PromptRow, text: string): Promise<void> {
  try {
    if (!prompt.voiceKey || !prompt.voiceRegion) throw new Error('no Azure key or region');
    const audio = await synthesise(ctx.config.ai, { name: prompt.voice, key: openSecret(ctx.secrets, prompt.voiceKey), region: prompt.voiceRegion }, text);
    const saved = await ctx.storage.save(ticket.companyId, audio, 'audio/ogg');
    await queueOutgoing(ctx, { companyId: ticket.companyId, ticketId: ticket.id, body: '', media: { fileName: saved.fileName, mimetype: saved.mimetype, mediaType: 'audio' } });
  } catch (err) {
    ctx.log.warn({ err, ticketId: ticket.id, promptId: prompt.id }, 'prompt voice synthesis failed; the text answer was sent');
  }
}
