import { maskSecret, type Prompt } from '@balcao/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { prompts, queues } from '../../db/schema/index.js';
import { openSecret, type Secrets } from '../../secrets.js';

export type PromptRow = typeof prompts.$inferSelect;
type QueueRef = { id: number; name: string; color: string } | null;

/** The record the API answers: keys masked, with its queue. */
export function presentPrompt(secrets: Secrets, row: PromptRow, queue: QueueRef): Prompt {
  const mask = (sealed: string) => maskSecret(openSecret(secrets, sealed));
  return {
    id: row.id,
    name: row.name,
    prompt: row.prompt,
    apiKey: mask(row.apiKey),
    voice: row.voice,
    voiceKey: row.voiceKey === null ? null : mask(row.voiceKey),
    voiceRegion: row.voiceRegion,
    maxTokens: row.maxTokens,
    temperature: row.temperature,
    maxMessages: row.maxMessages,
    queueId: row.queueId,
    queue,
    companyId: row.companyId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const queueRef = { id: queues.id, name: queues.name, color: queues.color };

/** The company's prompts (or one of them) with their queues, by name. */
export async function loadPrompts(db: DbOrTx, secrets: Secrets, companyId: number, id?: number): Promise<Prompt[]> {
  const rows = await db
    .select({ prompt: prompts, queue: queueRef })
    .from(prompts)
    .leftJoin(queues, eq(queues.id, prompts.queueId))
    .where(and(eq(prompts.companyId, companyId), id === undefined ? undefined : eq(prompts.id, id)))
    .orderBy(asc(prompts.name), asc(prompts.id));
  return rows.map((r) => presentPrompt(secrets, r.prompt, r.queue));
}

export async function findPrompt(db: DbOrTx, companyId: number, id: number): Promise<PromptRow | undefined> {
  const [row] = await db
    .select()
    .from(prompts)
    .where(and(eq(prompts.companyId, companyId), eq(prompts.id, id)));
  return row;
}
