import { z } from 'zod';
import { DEFAULT_QUEUE_COLOR } from './constants.js';
import { CSS_COLOR, pageQuery } from './validation.js';

/** Tags (spec 2 §3, §5, §7): contact tags, ticket tags and kanban lanes (`kanban = 1`). */

export const TAGS_PAGE_SIZE = 20;
export const TAG_NAME_MIN = 3;
export const TAG_NAME_MAX = 100;
/** Colour of a tag created without one (e.g. typed into the contact drawer). */
export const DEFAULT_TAG_COLOR = DEFAULT_QUEUE_COLOR;
/** The tag form's messages (spec 2 §5). */
export const TAG_MSG = { tooShort: 'Mensagem muito curta', required: 'Obrigatório', tooLong: 'Too Long!', contactTagTooShort: 'Tag muito curta!' } as const;

export const tagSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  color: z.string(),
  kanban: z.number(),
  timeLane: z.number(),
  nextLaneId: z.number().nullable(),
  rollbackLaneId: z.number().nullable(),
  greetingMessageLane: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Tag = z.infer<typeof tagSchema>;
/** `GET /tags`: each tag with `ticketTags` and `contactTags`, the numbers of tickets and contacts carrying it. */
export const tagWithCountSchema = tagSchema.extend({ ticketTags: z.number(), contactTags: z.number() });
export type TagWithCount = z.infer<typeof tagWithCountSchema>;

const kanbanFlag = z.coerce.number().int().min(0).max(1);

const tagName = (tooShort: string) =>
  z
    .string({ error: TAG_MSG.required })
    .trim()
    .min(1, { error: TAG_MSG.required, abort: true })
    .min(TAG_NAME_MIN, tooShort)
    .max(TAG_NAME_MAX, TAG_MSG.tooLong);

const tagColor = z.string().trim().min(1).max(30).regex(CSS_COLOR, 'Invalid color');

/** `POST /tags`. */
export const createTagBody = z.object({
  name: tagName(TAG_MSG.tooShort),
  color: tagColor.optional().default(DEFAULT_TAG_COLOR),
  kanban: kanbanFlag.optional().default(0),
  timeLane: z.coerce.number().int().min(0).max(1_000_000).optional(),
  nextLaneId: z.number().int().positive().nullable().optional(),
  rollbackLaneId: z.number().int().positive().nullable().optional(),
  greetingMessageLane: z.string().max(5000).optional(),
});
export type CreateTagBody = z.input<typeof createTagBody>;
/** `PUT /tags/{id}`: a partial update. */
export const updateTagBody = z.object({
  name: tagName(TAG_MSG.tooShort).optional(),
  color: tagColor.optional(),
  kanban: kanbanFlag.optional(),
  timeLane: z.coerce.number().int().min(0).max(1_000_000).optional(),
  nextLaneId: z.number().int().positive().nullable().optional(),
  rollbackLaneId: z.number().int().positive().nullable().optional(),
  greetingMessageLane: z.string().max(5000).optional(),
});
export type UpdateTagBody = z.input<typeof updateTagBody>;

/** `GET /tags/list`: `companyId` is accepted and ignored (the company comes from the token). */
export const listTagsQuery = z.object({ kanban: kanbanFlag.optional(), companyId: z.unknown().optional() });
/** `GET /tags`. */
export const pageTagsQuery = pageQuery.extend({ kanban: kanbanFlag.optional(), tagId: z.coerce.number().int().positive().optional() });
export const tagPageResponse = z.object({ tags: z.array(tagWithCountSchema), count: z.number(), hasMore: z.boolean() });
export type TagPage = z.infer<typeof tagPageResponse>;

/** `POST /tags/sync`: the contact's tags become exactly this list; entries without a known id are found or created by name. */
export const syncTagsBody = z.object({
  contactId: z.coerce.number().int().positive(),
  tags: z
    .array(z.object({ id: z.number().int().positive().optional(), name: tagName(TAG_MSG.contactTagTooShort), color: tagColor.optional() }))
    .max(100),
});
export type SyncTagsBody = z.input<typeof syncTagsBody>;
