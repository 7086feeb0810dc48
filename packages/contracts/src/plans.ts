import { z } from 'zod';
import { requiredText } from './validation.js';

/** Plan feature flags (spec 1 §3 Plan); each gates a feature on the server and in the menu. */
export const PLAN_FLAGS = [
  'useWhatsapp',
  'useFacebook',
  'useInstagram',
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
] as const;

export type PlanFlag = (typeof PLAN_FLAGS)[number];

export const planSchema = z.object({
  id: z.number(),
  name: z.string(),
  users: z.number(),
  connections: z.number(),
  queues: z.number(),
  amount: z.string(),
  isPublic: z.boolean(),
  useWhatsapp: z.boolean(),
  useFacebook: z.boolean(),
  useInstagram: z.boolean(),
  useCampaigns: z.boolean(),
  useSchedules: z.boolean(),
  useInternalChat: z.boolean(),
  useExternalApi: z.boolean(),
  useKanban: z.boolean(),
  useOpenAi: z.boolean(),
  useIntegrations: z.boolean(),
});
export type Plan = z.infer<typeof planSchema>;

const limit = z.coerce.number({ error: 'Required' }).int().min(0).max(1_000_000);

/** A price in reais: a number or a decimal text ('49.90' or '49,90'), kept as a 2-decimal string. */
const amount = z
  .union([z.number(), z.string().trim().regex(/^\d{1,10}([.,]\d{1,2})?$/, 'expected a price like 49.90')])
  .transform((v) => Number(String(v).replace(',', '.')))
  .pipe(z.number().min(0).max(9_999_999_999))
  .transform((v) => v.toFixed(2));

const flagFields = Object.fromEntries(PLAN_FLAGS.map((f) => [f, z.boolean()])) as Record<PlanFlag, z.ZodBoolean>;

/** Plan form fields, without defaults so that `PUT` changes only what it is sent. */
const planFields = z.object({
  name: requiredText(2, 50),
  users: limit,
  connections: limit,
  queues: limit,
  amount,
  isPublic: z.boolean(),
  ...flagFields,
});

/** `POST /plans`: every feature flag and the public flag default to true (spec 1 §3 Plan). */
export const createPlanBody = planFields.extend({
  amount: amount.optional().default('0.00'),
  isPublic: z.boolean().optional().default(true),
  ...(Object.fromEntries(PLAN_FLAGS.map((f) => [f, z.boolean().optional().default(true)])) as Record<
    PlanFlag,
    z.ZodDefault<z.ZodOptional<z.ZodBoolean>>
  >),
});
export type CreatePlanBody = z.input<typeof createPlanBody>;

/** `PUT /plans/{id}`: a partial update of the fields. */
export const updatePlanBody = planFields.partial();
export type UpdatePlanBody = z.input<typeof updatePlanBody>;
