import { z } from 'zod';
import { DUE_SOON_DAYS, RENEWAL_MONTHS, type Recurrence } from './constants.js';
import { planSchema } from './plans.js';
import { weekSchedule } from './schedules.js';
import { toggleSchema } from './lenient.js';
import { companySettingsSchema } from './settings.js';
import { MSG, emailField, optionalText, passwordField, requiredText } from './validation.js';

export const RECURRENCES = Object.keys(RENEWAL_MONTHS) as Recurrence[];
export const recurrenceSchema = z.enum(RECURRENCES as [Recurrence, ...Recurrence[]]);

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** YYYY-MM-DD of a Date in local time. */
export function localIsoDate(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function parseIsoDate(date: string): { y: number; m: number; d: number } {
  const [y, m, d] = date.split('-').map(Number);
  return { y: y ?? 0, m: m ?? 1, d: d ?? 1 };
}

/**
 * Adds whole months to a YYYY-MM-DD date, keeping the day of the month and
 * clamping to the last day when the target month is shorter (Jan 31 + 1 month = Feb 28/29).
 */
export function addMonths(date: string, months: number): string {
  const { y, m, d } = parseIsoDate(date);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
}

/**
 * The due date after one renewal: the current due date plus the recurrence's months
 * (MENSAL 1, BIMESTRAL 2, TRIMESTRAL 3, SEMESTRAL 6, ANUAL 12). A company without a due date renews from `today`.
 */
export function renewDueDate(dueDate: string | null, recurrence: Recurrence, today: string): string {
  return addMonths(dueDate && isoDate.test(dueDate) ? dueDate : today, RENEWAL_MONTHS[recurrence]);
}

/** Whole days from `today` to `dueDate` (negative when past). */
export function daysUntil(dueDate: string, today: string): number {
  const a = parseIsoDate(today);
  const b = parseIsoDate(dueDate);
  return Math.round((Date.UTC(b.y, b.m - 1, b.d) - Date.UTC(a.y, a.m - 1, a.d)) / 86_400_000);
}

/** Due-date colouring of the companies table: today or past red, 1–5 days yellow, else none. */
export function dueDateColour(dueDate: string | null, today: string): 'red' | 'yellow' | null {
  if (!dueDate || !isoDate.test(dueDate)) return null;
  const days = daysUntil(dueDate, today);
  if (days <= 0) return 'red';
  return days <= DUE_SOON_DAYS ? 'yellow' : null;
}

/** An empty due date is sent as null (spec 1 §5 Company form). */
const dueDateField = z.preprocess((v) => (v === '' ? null : v), z.string().regex(isoDate, 'expected YYYY-MM-DD').nullable());

/** Company form fields (spec 1 §3, §5), without defaults so that `PUT` changes only what it is sent. */
const companyFields = z.object({
  name: requiredText(2, 50),
  email: emailField,
  phone: optionalText(30),
  document: optionalText(30),
  planId: z.number({ error: MSG.required }).int().positive(),
  status: z.boolean(),
  dueDate: dueDateField,
  recurrence: recurrenceSchema,
  paymentMethod: optionalText(50),
  street: optionalText(200),
  city: optionalText(100),
  state: optionalText(100),
  /** The company setting edited on the company form (spec 1 §3 Company settings). */
  campaignsEnabled: toggleSchema,
});

/** The first admin's name when the form leaves it blank: the e-mail's part before @. */
export const defaultAdminName = (email: string): string => email.split('@')[0]?.slice(0, 50) ?? email;

/**
 * `POST /companies`: also creates the company's first admin user with the company's
 * e-mail and this password (spec 1 §3: "password (default for the first user)"),
 * named `adminName` (blank: `defaultAdminName` of the e-mail), as users are (2–50).
 */
export const createCompanyBody = companyFields.partial().extend({
  name: companyFields.shape.name,
  email: companyFields.shape.email,
  planId: companyFields.shape.planId,
  password: passwordField,
  adminName: z.preprocess((v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v), requiredText(2, 50).optional()),
});
export type CreateCompanyBody = z.input<typeof createCompanyBody>;

/** `PUT /companies/{id}`: a partial update; a password resets the first admin's (the user with the company's e-mail). */
export const updateCompanyBody = companyFields.partial().extend({ password: z.preprocess((v) => (v === '' ? undefined : v), passwordField.optional()) });
export type UpdateCompanyBody = z.input<typeof updateCompanyBody>;

export const companySchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  document: z.string().nullable(),
  planId: z.number().nullable(),
  plan: planSchema.nullable(),
  status: z.boolean(),
  dueDate: z.string().nullable(),
  recurrence: recurrenceSchema,
  paymentMethod: z.string().nullable(),
  street: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  schedules: weekSchedule,
  companieSettings: companySettingsSchema,
  lastLogin: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Company = z.infer<typeof companySchema>;

/**
 * `GET /companies/listPlan/{companyId}`: clients of this API family read the flags as `plan.useX` (the company with its
 * plan nested); the spec's flat reading (`useX` at the top) keeps working, so on `id` and `name` the plan wins.
 */
export const companyPlanSchema = companySchema.omit({ plan: true }).extend(planSchema.shape).extend({ plan: planSchema });
export type CompanyPlan = z.infer<typeof companyPlanSchema>;

export const companiesPageSchema = z.object({ companies: z.array(companySchema), count: z.number(), hasMore: z.boolean() });
export type CompaniesPage = z.infer<typeof companiesPageSchema>;

/** `PUT /companies/{id}/schedules`. */
export const companySchedulesBody = z.object({ schedules: weekSchedule });
export type CompanySchedulesBody = z.infer<typeof companySchedulesBody>;
