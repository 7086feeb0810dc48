import {
  PROMPT_DELETED_MESSAGE,
  PROMPT_MSG,
  PROMPT_SECRET_MASK,
  PROMPT_TEXT_VOICE,
  type ListEventPayload,
  type Prompt,
  type createPromptBody,
  type updatePromptBody,
} from '@balcao/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { prompts, queues } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { sealSecret } from '../../secrets.js';
import { conflictAs } from '../contacts/unique.js';
import { findPrompt, loadPrompts, type PromptRow } from './queries.js';

/** Prompts are admin records behind the plan's `useOpenAi` (routes.ts); the keys are sealed at rest and answered masked. */

const NAME_KEY = 'prompts_company_id_name_key';
const notFound = () => new AppError('ERR_NO_PROMPT_FOUND', 404);
const fieldError = (path: string, message: string) => new AppError('ERR_VALIDATION', 400, message, [{ path, message }]);

async function emitPrompt(ctx: AppContext, companyId: number, payload: ListEventPayload<Prompt>): Promise<void> {
  await ctx.events.publish({ type: 'prompt.record', companyId, payload });
}

async function presentOne(ctx: AppContext, companyId: number, id: number): Promise<Prompt> {
  const [prompt] = await loadPrompts(ctx.db, ctx.secrets, companyId, id);
  if (!prompt) throw notFound();
  return prompt;
}

/** The queue must be the company's ('Informe o setor' names the field, as the dialog does). */
async function assertOwnQueue(db: DbOrTx, companyId: number, queueId: number | null): Promise<number> {
  if (queueId === null) throw fieldError('queueId', PROMPT_MSG.queue);
  const [own] = await db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)));
  if (!own) throw fieldError('queueId', 'unknown queue');
  return own.id;
}

/** Name is unique per company whatever its case; the unique key backs the check up. */
async function assertNameFree(db: DbOrTx, companyId: number, name: string, exceptId?: number): Promise<void> {
  const [clash] = await db
    .select({ id: prompts.id })
    .from(prompts)
    .where(and(eq(prompts.companyId, companyId), sql`lower(${prompts.name}) = lower(${name})`));
  if (clash && clash.id !== exceptId) throw new AppError('ERR_PROMPT_ALREADY_EXISTS', 409);
}

/** A submitted key: sealed; the mask the API answered (or nothing) keeps the stored one. */
function sealedKey(ctx: AppContext, submitted: string | null | undefined, stored: string | null): string | null | undefined {
  if (submitted === undefined || (submitted && submitted.startsWith(PROMPT_SECRET_MASK))) return undefined;
  if (!submitted) return stored === null ? undefined : null;
  return sealSecret(ctx.secrets, submitted);
}

/** `GET /prompt` → `{ prompts, count, hasMore }` (every prompt of the company: a short list). */
export async function listPrompts(ctx: AppContext, by: AuthUser) {
  const list = await loadPrompts(ctx.db, ctx.secrets, by.companyId);
  return { prompts: list, count: list.length, hasMore: false };
}

export const getPrompt = (ctx: AppContext, by: AuthUser, id: number): Promise<Prompt> => presentOne(ctx, by.companyId, id);

export async function createPrompt(ctx: AppContext, by: AuthUser, body: z.output<typeof createPromptBody>): Promise<Prompt> {
  const companyId = by.companyId;
  const row = await conflictAs(NAME_KEY, 'ERR_PROMPT_ALREADY_EXISTS', () =>
    ctx.db.transaction(async (tx) => {
      const queueId = await assertOwnQueue(tx, companyId, body.queueId);
      await assertNameFree(tx, companyId, body.name);
      const [inserted] = await tx
        .insert(prompts)
        .values({
          ...body,
          companyId,
          queueId,
          apiKey: sealSecret(ctx.secrets, body.apiKey),
          voiceKey: body.voiceKey ? sealSecret(ctx.secrets, body.voiceKey) : null,
          voiceRegion: body.voiceRegion || null,
        })
        .returning({ id: prompts.id });
      return inserted;
    }),
  );
  if (!row) throw new AppError('ERR_INTERNAL', 500);
  const prompt = await presentOne(ctx, companyId, row.id);
  await emitPrompt(ctx, companyId, { action: 'create', record: prompt });
  return prompt;
}

export async function updatePrompt(ctx: AppContext, by: AuthUser, id: number, body: z.output<typeof updatePromptBody>): Promise<Prompt> {
  const companyId = by.companyId;
  await conflictAs(NAME_KEY, 'ERR_PROMPT_ALREADY_EXISTS', () =>
    ctx.db.transaction(async (tx) => {
      const scope = and(eq(prompts.companyId, companyId), eq(prompts.id, id));
      const [current] = await tx.select().from(prompts).where(scope).for('update');
      if (!current) throw notFound();
      if (body.queueId !== undefined) await assertOwnQueue(tx, companyId, body.queueId);
      if (body.name !== undefined) await assertNameFree(tx, companyId, body.name, id);
      const change: Partial<PromptRow> = {
        name: body.name,
        prompt: body.prompt,
        voice: body.voice,
        maxTokens: body.maxTokens,
        temperature: body.temperature,
        maxMessages: body.maxMessages,
        queueId: body.queueId ?? undefined,
        voiceRegion: body.voiceRegion === undefined ? undefined : body.voiceRegion || null,
        apiKey: sealedKey(ctx, body.apiKey, current.apiKey) ?? undefined,
        voiceKey: sealedKey(ctx, body.voiceKey, current.voiceKey),
      };
      const merged = { ...current, ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) };
      if (merged.voice !== PROMPT_TEXT_VOICE && (!merged.voiceKey || !merged.voiceRegion)) {
        throw fieldError(merged.voiceKey ? 'voiceRegion' : 'voiceKey', PROMPT_MSG.required);
      }
      await tx.update(prompts).set(change).where(scope);
    }),
  );
  const prompt = await presentOne(ctx, companyId, id);
  await emitPrompt(ctx, companyId, { action: 'update', record: prompt });
  return prompt;
}

/** Connections that named it lose it (FK `set null`); answers the message the page shows. */
export async function deletePrompt(ctx: AppContext, by: AuthUser, id: number): Promise<{ message: string }> {
  const deleted = await ctx.db
    .delete(prompts)
    .where(and(eq(prompts.companyId, by.companyId), eq(prompts.id, id)))
    .returning({ id: prompts.id });
  if (deleted.length === 0) throw notFound();
  await emitPrompt(ctx, by.companyId, { action: 'delete', id });
  return { message: PROMPT_DELETED_MESSAGE };
}

/** `PUT /whatsapp/{id}` and its create: a connection's `promptId` must be the company's. */
export async function assertOwnPrompt(db: DbOrTx, companyId: number, promptId: number | null | undefined): Promise<void> {
  if (promptId && !(await findPrompt(db, companyId, promptId))) throw fieldError('promptId', 'unknown prompt');
}
