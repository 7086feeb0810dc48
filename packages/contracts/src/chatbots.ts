import { z } from 'zod';
import { CHATBOT_OPTION_TYPES, ROUTER_MINUTES } from './automation.js';
import { idParam, MSG, requiredText } from './validation.js';

/** A queue chatbot option as the API answers it (spec 3 §3 "Chatbot option"), with its nested options. */
export interface ChatbotOption {
  id: number;
  queueId: number;
  parentId: number | null;
  name: string;
  greetingMessage: string;
  queueType: (typeof CHATBOT_OPTION_TYPES)[number];
  closeTicket: boolean;
  optQueueId: number | null;
  optUserId: number | null;
  optIntegrationId: number | null;
  optFileId: number | null;
  /** The answer number is position + 1. */
  position: number;
  options: ChatbotOption[];
}

export const chatbotOptionSchema: z.ZodType<ChatbotOption> = z.lazy(() =>
  z.object({
    id: z.number(),
    queueId: z.number(),
    parentId: z.number().nullable(),
    name: z.string(),
    greetingMessage: z.string(),
    queueType: z.enum(CHATBOT_OPTION_TYPES),
    closeTicket: z.boolean(),
    optQueueId: z.number().nullable(),
    optUserId: z.number().nullable(),
    optIntegrationId: z.number().nullable(),
    optFileId: z.number().nullable(),
    position: z.number(),
    options: z.array(chatbotOptionSchema),
  }),
);

/** Deepest nesting accepted (a guard against absurd payloads, far beyond any menu a customer walks). */
export const CHATBOT_MAX_DEPTH = 20;
/** Options of one queue, all levels together. */
export const CHATBOT_MAX_OPTIONS = 500;

const nullableId = z.preprocess((v) => (v === '' || v === 0 ? null : v), idParam.nullable()).optional();

const optionFields = {
  /** An existing option keeps its id (tickets sitting on it stay there); without one it is created. */
  id: idParam.optional(),
  name: requiredText(4, 100),
  greetingMessage: z.string().max(5000, MSG.tooLong).nullable().optional(),
  queueType: z.enum(CHATBOT_OPTION_TYPES).optional().default('text'),
  closeTicket: z.boolean().optional().default(false),
  optQueueId: nullableId,
  optUserId: nullableId,
  optIntegrationId: nullableId,
  optFileId: nullableId,
};

export interface ChatbotOptionInput {
  id?: number;
  name: string;
  greetingMessage?: string | null;
  queueType?: (typeof CHATBOT_OPTION_TYPES)[number];
  closeTicket?: boolean;
  optQueueId?: number | null;
  optUserId?: number | null;
  optIntegrationId?: number | null;
  optFileId?: number | null;
  options?: ChatbotOptionInput[];
}
type ChatbotOptionParsed = Omit<ChatbotOptionInput, 'options' | 'queueType' | 'closeTicket'> & {
  queueType: (typeof CHATBOT_OPTION_TYPES)[number];
  closeTicket: boolean;
  options?: ChatbotOptionParsed[];
};

/** 'a bot option needs a message to go deeper' (spec 3 §5). */
export const CHATBOT_MESSAGE_REQUIRED = 'A message is required to add options';

/** One option of a tree a client sends (shaped like ChatbotOptionInput), its nested options inside. */
export const chatbotOptionInput: z.ZodType<ChatbotOptionParsed, unknown> = z.lazy(() =>
  z
    .object({ ...optionFields, options: z.array(chatbotOptionInput).max(CHATBOT_MAX_OPTIONS).optional() })
    .refine((o) => !o.options?.length || !!o.greetingMessage?.trim(), { path: ['greetingMessage'], message: CHATBOT_MESSAGE_REQUIRED }),
);
export type ChatbotOptionBody = z.output<typeof chatbotOptionInput>;

/** `POST /chatbot`: an option of `queueId` under `parentId` (none: the queue's top level), added last. */
export const createChatbotBody = z
  .object({ ...optionFields, queueId: idParam, parentId: nullableId, options: z.array(chatbotOptionInput).max(CHATBOT_MAX_OPTIONS).optional() })
  .omit({ id: true })
  .refine((o) => !o.options?.length || !!o.greetingMessage?.trim(), { path: ['greetingMessage'], message: CHATBOT_MESSAGE_REQUIRED });
export type CreateChatbotBody = z.input<typeof createChatbotBody>;

/** `PUT /chatbot/{id}`: its fields; `options`, when sent, replace its nested options. */
export const updateChatbotBody = z.object({
  name: optionFields.name.optional(),
  greetingMessage: optionFields.greetingMessage,
  queueType: z.enum(CHATBOT_OPTION_TYPES).optional(),
  closeTicket: z.boolean().optional(),
  optQueueId: nullableId,
  optUserId: nullableId,
  optIntegrationId: nullableId,
  optFileId: nullableId,
  options: z.array(chatbotOptionInput).max(CHATBOT_MAX_OPTIONS).optional(),
});
export type UpdateChatbotBody = z.input<typeof updateChatbotBody>;

/** The queue's router fields (`tempoRoteador` one of ROUTER_MINUTES, 0 when off). */
export const routerFields = {
  ativarRoteador: z.boolean().optional(),
  tempoRoteador: z
    .preprocess((v) => (v === '' || v === null ? 0 : v), z.coerce.number().int())
    .refine((n) => n === 0 || (ROUTER_MINUTES as readonly number[]).includes(n), { message: `One of ${ROUTER_MINUTES.join(', ')}` })
    .optional(),
};
