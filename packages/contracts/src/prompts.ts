import { z } from 'zod';
import { PROMPT_NEURAL_VOICES, PROMPT_TEXT_VOICE } from './automation.js';
import { optionalId } from './lenient.js';

/** AI prompts (spec 3 §2 "AI prompts page", §3 "Prompt", §7 "Prompts"; issue 16): the /prompts page and its dialog. */

export const PROMPT_VOICES = [PROMPT_TEXT_VOICE, ...PROMPT_NEURAL_VOICES] as const;
export type PromptVoice = (typeof PROMPT_VOICES)[number];
export const PROMPT_DEFAULTS = { maxTokens: 100, temperature: 1, maxMessages: 10, voice: PROMPT_TEXT_VOICE } as const;
export const PROMPT_LIMITS = { maxTokens: 4096, maxMessages: 50, temperature: 2, text: 20_000 } as const;
export const PROMPT_MSG = { queue: 'Informe o setor', required: 'Obrigatório' } as const;
/** What a stored key is answered as: never the key, only this prefix and its last 4 characters. */
export const PROMPT_SECRET_MASK = '••••••••';
/** `DELETE /prompt/{id}` answers this message; the page shows it as an info toast. */
export const PROMPT_DELETED_MESSAGE = 'Prompt deleted';

const required = (max: number) => z.string({ error: PROMPT_MSG.required }).trim().min(1, { error: PROMPT_MSG.required, abort: true }).max(max);
const optionalText = z.string().trim().max(200).nullish();

const fields = {
  name: required(100),
  prompt: required(PROMPT_LIMITS.text),
  apiKey: required(500),
  voice: z.enum(PROMPT_VOICES),
  voiceKey: optionalText,
  voiceRegion: optionalText,
  maxTokens: z.coerce.number().int().min(1).max(PROMPT_LIMITS.maxTokens),
  temperature: z.coerce.number().min(0).max(PROMPT_LIMITS.temperature),
  maxMessages: z.coerce.number().int().min(1).max(PROMPT_LIMITS.maxMessages),
  queueId: z.preprocess((v) => v ?? null, optionalId).refine((v) => v !== null, { error: PROMPT_MSG.queue }),
};

/** A neural voice needs the Azure key and region that synthesise it. */
function voiceNeedsKey(v: { voice?: string; voiceKey?: string | null; voiceRegion?: string | null }, ctx: z.RefinementCtx) {
  if (!v.voice || v.voice === PROMPT_TEXT_VOICE) return;
  if (!v.voiceKey) ctx.addIssue({ code: 'custom', path: ['voiceKey'], message: PROMPT_MSG.required });
  if (!v.voiceRegion) ctx.addIssue({ code: 'custom', path: ['voiceRegion'], message: PROMPT_MSG.required });
}

/** `POST /prompt`. */
export const createPromptBody = z
  .object({
    ...fields,
    voice: fields.voice.default(PROMPT_DEFAULTS.voice),
    maxTokens: fields.maxTokens.default(PROMPT_DEFAULTS.maxTokens),
    temperature: fields.temperature.default(PROMPT_DEFAULTS.temperature),
    maxMessages: fields.maxMessages.default(PROMPT_DEFAULTS.maxMessages),
  })
  .superRefine(voiceNeedsKey);
export type CreatePromptBody = z.input<typeof createPromptBody>;

/** `PUT /prompt/{id}`: partial; a key left as its mask (or left out) keeps the stored key. */
export const updatePromptBody = z.object({
  name: fields.name.optional(),
  prompt: fields.prompt.optional(),
  apiKey: fields.apiKey.optional(),
  voice: fields.voice.optional(),
  voiceKey: optionalText,
  voiceRegion: optionalText,
  maxTokens: fields.maxTokens.optional(),
  temperature: fields.temperature.optional(),
  maxMessages: fields.maxMessages.optional(),
  queueId: fields.queueId.optional(),
});
export type UpdatePromptBody = z.input<typeof updatePromptBody>;

export const promptSchema = z.object({
  id: z.number(),
  name: z.string(),
  prompt: z.string(),
  /** Masked: `PROMPT_SECRET_MASK` + the last 4 characters. */
  apiKey: z.string(),
  voice: z.string(),
  /** Masked like apiKey. */
  voiceKey: z.string().nullable(),
  voiceRegion: z.string().nullable(),
  maxTokens: z.number(),
  temperature: z.number(),
  maxMessages: z.number(),
  queueId: z.number(),
  queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  companyId: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Prompt = z.infer<typeof promptSchema>;

/** `GET /prompt`. */
export const promptListResponse = z.object({ prompts: z.array(promptSchema), count: z.number(), hasMore: z.boolean() });
export const promptDeletedResponse = z.object({ message: z.string() });

/** The mask of a stored secret. */
export const maskSecret = (secret: string): string => `${PROMPT_SECRET_MASK}${secret.slice(-4)}`;
