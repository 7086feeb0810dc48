import { z } from 'zod';
import { quickMessageSchema } from './messages.js';
import { looseBoolean } from './lenient.js';
import { pageQuery } from './validation.js';

/** Quick replies (spec 2 §2 "Quick messages", §5, §7): the /quick-messages page and its modal. */

export const QUICK_MESSAGES_PAGE_SIZE = 20;
export const QUICK_MESSAGE_SHORTCODE_MAX = 100;
export const QUICK_MESSAGE_TEXT_MAX = 10_000;
export const QUICK_MESSAGE_MSG = { required: 'Obrigatório' } as const;

const shortcode = z
  .string({ error: QUICK_MESSAGE_MSG.required })
  .trim()
  .min(1, { error: QUICK_MESSAGE_MSG.required, abort: true })
  .max(QUICK_MESSAGE_SHORTCODE_MAX)
  // The composer looks replies up by the word after '/': spaces would make them unreachable.
  .regex(/^\S+$/, 'Sem espaços');

/** `POST /quick-messages`. `visao`: the team sees it (read-only unless `geral`); `geral`: every user may use and edit it. */
export const createQuickMessageBody = z.object({
  shortcode,
  message: z.string().max(QUICK_MESSAGE_TEXT_MAX).optional().default(''),
  geral: looseBoolean.optional().default(false),
  visao: looseBoolean.optional().default(true),
  status: looseBoolean.optional().default(true),
});
export type CreateQuickMessageBody = z.input<typeof createQuickMessageBody>;

/** `PUT /quick-messages/{id}`: a partial update. */
export const updateQuickMessageBody = z.object({
  shortcode: shortcode.optional(),
  message: z.string().max(QUICK_MESSAGE_TEXT_MAX).optional(),
  geral: looseBoolean.optional(),
  visao: looseBoolean.optional(),
  status: looseBoolean.optional(),
});
export type UpdateQuickMessageBody = z.input<typeof updateQuickMessageBody>;

/** `GET /quick-messages`: `companyId`/`userId` are accepted and ignored (the token decides). */
export const pageQuickMessagesQuery = pageQuery.extend({ companyId: z.unknown().optional(), userId: z.unknown().optional() });
export const quickMessagePageResponse = z.object({ records: z.array(quickMessageSchema), count: z.number(), hasMore: z.boolean() });
export type QuickMessagePage = z.infer<typeof quickMessagePageResponse>;

/** Whether `viewer` may change the reply: admins, the owner, and anyone for a general (`geral`) one. */
export function canEditQuickMessage(q: { geral: boolean; userId: number | null }, viewer: { id: number; profile: string; super?: boolean }): boolean {
  return viewer.profile === 'admin' || viewer.super === true || q.geral || q.userId === viewer.id;
}
