import { z } from 'zod';
import { chatbotOptionInput, chatbotOptionSchema, CHATBOT_MAX_OPTIONS, routerFields } from './chatbots.js';
import { weekSchedule } from './schedules.js';
import { MSG, optionalText, requiredText } from './validation.js';

/** A queue as `GET /queue`, `GET /queue/{id}` and the `company-{id}-queue` event carry it. */
export const queueSchema = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  color: z.string(),
  orderQueue: z.number().nullable(),
  greetingMessage: z.string().nullable(),
  outOfHoursMessage: z.string().nullable(),
  closeTicket: z.boolean(),
  schedules: weekSchedule,
  ativarRoteador: z.boolean(),
  tempoRoteador: z.number(),
  /** The chatbot option tree: answered by `GET /queue/{id}` and the queue's create/update, not by the list. */
  chatbots: z.array(chatbotOptionSchema).optional(),
  /** The integration and the file list of the queue (issue 16). */
  integrationId: z.number().nullable(),
  fileListId: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Queue = z.infer<typeof queueSchema>;

/** Queue-data tab and service-hours tab of the queue dialog (spec 3 §5). */
const queueFields = z.object({
  name: requiredText(2, 50),
  // 3–9 characters (spec 3 §5): '#RGB' up to '#RRGGBBAA'; unique per company.
  color: z
    .string({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .min(3, MSG.tooShort)
    .max(9, MSG.tooLong)
    .regex(/^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i, 'Invalid color'),
  orderQueue: z.preprocess((v) => (v === '' ? null : v), z.coerce.number().int().min(0).max(1_000_000).nullable()).optional(),
  greetingMessage: optionalText(5000),
  outOfHoursMessage: optionalText(5000),
  closeTicket: z.boolean().optional(),
  schedules: weekSchedule.optional(),
  ...routerFields,
  /** The whole option tree: it replaces the stored one (options sent with their id keep it). */
  chatbots: z.array(chatbotOptionInput).max(CHATBOT_MAX_OPTIONS).optional(),
  integrationId: z.coerce.number().int().positive().max(2_147_483_647).nullable().optional(),
  fileListId: z.coerce.number().int().positive().max(2_147_483_647).nullable().optional(),
});

/** `POST /queue`: color defaults to #7C7C7C on the form; schedules to the default hours. */
export const createQueueBody = queueFields;
export type CreateQueueBody = z.input<typeof createQueueBody>;
/** `PUT /queue/{id}`: a partial update, schedules included. */
export const updateQueueBody = queueFields.partial();
export type UpdateQueueBody = z.input<typeof updateQueueBody>;
