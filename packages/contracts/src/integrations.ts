import { z } from 'zod';
import { QUEUE_INTEGRATION_TYPES } from './automation.js';
import { MSG, pageQuery, requiredText } from './validation.js';

/** Queue integrations (spec 3 §2 "Integrations page", §3, §5, §7) and file lists ("File lists page"). */


export const QUEUE_INTEGRATIONS_PAGE_SIZE = 20;
export const DIALOGFLOW_LANGUAGES = ['pt-BR', 'en', 'es'] as const;
/** What the API answers in place of a stored service-account key; sent back unchanged, it keeps the stored one. */
export const SECRET_MASK = '********';
export const TYPEBOT_DEFAULTS = { typebotDelayMessage: 1000, typebotExpires: 1 } as const;

const integrationName = requiredText(2, 50);
const nullableText = (max: number) => z.string().trim().max(max, MSG.tooLong).nullable().optional();
/** An http(s) address (n8n, webhook, Typebot); '' clears it. */
const httpUrl = z
  .string()
  .trim()
  .max(2000, MSG.tooLong)
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'URL inválida')
  .nullable()
  .optional();

const integrationFields = {
  projectName: nullableText(200),
  jsonContent: z.string().max(20_000, MSG.tooLong).nullable().optional(),
  language: nullableText(20),
  urlN8N: httpUrl,
  typebotSlug: nullableText(200),
  typebotExpires: z.coerce.number().int().min(0).max(100_000).optional(),
  typebotDelayMessage: z.coerce.number().int().min(0).max(60_000).optional(),
  typebotKeywordFinish: nullableText(100),
  typebotKeywordRestart: nullableText(100),
  typebotUnknownMessage: nullableText(5000),
  typebotRestartMessage: nullableText(5000),
};

/** `POST /queueIntegration`: only name and type are checked (spec 3 §5); n8n, webhook and typebot get projectName = name. */
export const createQueueIntegrationBody = z.object({
  type: z.enum(QUEUE_INTEGRATION_TYPES, { error: MSG.required }),
  name: integrationName,
  ...integrationFields,
});
export type CreateQueueIntegrationBody = z.input<typeof createQueueIntegrationBody>;
/** `PUT /queueIntegration/{id}`: a partial update. */
export const updateQueueIntegrationBody = z.object({
  type: z.enum(QUEUE_INTEGRATION_TYPES).optional(),
  name: integrationName.optional(),
  ...integrationFields,
});
export type UpdateQueueIntegrationBody = z.input<typeof updateQueueIntegrationBody>;

export const queueIntegrationSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  type: z.enum(QUEUE_INTEGRATION_TYPES),
  name: z.string(),
  projectName: z.string().nullable(),
  /** SECRET_MASK when a key is stored, else null: the key itself never leaves the server. */
  jsonContent: z.string().nullable(),
  language: z.string().nullable(),
  urlN8N: z.string().nullable(),
  typebotSlug: z.string().nullable(),
  typebotExpires: z.number(),
  typebotDelayMessage: z.number(),
  typebotKeywordFinish: z.string().nullable(),
  typebotKeywordRestart: z.string().nullable(),
  typebotUnknownMessage: z.string().nullable(),
  typebotRestartMessage: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type QueueIntegration = z.infer<typeof queueIntegrationSchema>;

export const pageQueueIntegrationsQuery = pageQuery;
export const queueIntegrationPageResponse = z.object({
  queueIntegrations: z.array(queueIntegrationSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type QueueIntegrationPage = z.infer<typeof queueIntegrationPageResponse>;

/**
 * `POST /queueIntegration/testSession`: one real detectIntent with these settings. `id` lets the
 * dialog of a saved integration test with its stored key (its jsonContent comes back as SECRET_MASK).
 */
export const testQueueIntegrationBody = z.object({
  projectName: z.string().trim().min(1, MSG.required).max(200),
  jsonContent: z.string().min(1, MSG.required).max(20_000),
  language: z.string().trim().min(1, MSG.required).max(20),
  id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  text: z.string().trim().max(500).optional(),
});
export const testQueueIntegrationResponse = z.object({ message: z.string(), replies: z.array(z.string()) });

// File lists (spec 3 §2 "File lists page", §3 "File list", §5).

export const FILE_LISTS_PAGE_SIZE = 20;
export const FILE_LIST_MSG = { tooShort: 'nome muito curto', required: 'Obrigatório' } as const;
export const FILE_LIST_OPTIONS_MAX = 50;

const fileListOptionInput = z.object({
  /** An existing option of the list (kept and renamed); without it the option is new. */
  id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  name: z.string({ error: FILE_LIST_MSG.required }).trim().min(1, FILE_LIST_MSG.required).max(200, MSG.tooLong),
});

const fileListFields = {
  name: z
    .string({ error: FILE_LIST_MSG.required })
    .trim()
    .min(1, { error: FILE_LIST_MSG.required, abort: true })
    .min(3, FILE_LIST_MSG.tooShort)
    .max(100, MSG.tooLong),
  message: z.string({ error: FILE_LIST_MSG.required }).trim().min(1, FILE_LIST_MSG.required).max(10_000, MSG.tooLong),
  options: z.array(fileListOptionInput).max(FILE_LIST_OPTIONS_MAX).optional().default([]),
  /** Accepted and ignored: the list belongs to the caller's company and records the caller. */
  userId: z.unknown().optional(),
};
/** `POST /files` and `PUT /files/{id}`: the options become exactly the list (options left out are removed with their files). */
export const saveFileListBody = z.object(fileListFields);
export type SaveFileListBody = z.input<typeof saveFileListBody>;

export const fileListOptionSchema = z.object({
  id: z.number(),
  fileId: z.number(),
  name: z.string(),
  /** The stored file's name (null until uploaded) and its public URL. */
  path: z.string().nullable(),
  mediaType: z.string().nullable(),
  url: z.string().nullable(),
});
export type FileListOption = z.infer<typeof fileListOptionSchema>;

export const fileListSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  message: z.string(),
  userId: z.number().nullable(),
  options: z.array(fileListOptionSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FileList = z.infer<typeof fileListSchema>;

/** `GET /files`: `companyId` is accepted and ignored (the company comes from the token). */
export const pageFileListsQuery = pageQuery.extend({ companyId: z.unknown().optional() });
export const fileListPageResponse = z.object({ files: z.array(fileListSchema), count: z.number(), hasMore: z.boolean() });
export type FileListPage = z.infer<typeof fileListPageResponse>;
