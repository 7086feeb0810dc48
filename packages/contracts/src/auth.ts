import { z } from 'zod';
import { planSchema } from './plans.js';
import { toggleSchema } from './lenient.js';

const email = z.string().trim().toLowerCase().pipe(z.email().max(120));

export const loginBody = z.object({
  email,
  password: z.string().min(1).max(200),
});
export type LoginBody = z.infer<typeof loginBody>;

export const signupBody = z.object({
  companyName: z.string().trim().min(2).max(50),
  name: z.string().trim().min(2).max(50),
  email,
  password: z.string().min(5).max(50),
  phone: z.string().trim().max(30).optional().default(''),
  planId: z.coerce.number().int().positive(),
  // Sent by older clients; ignored, the server always creates a new company.
  companyId: z.unknown().optional(),
});
export type SignupBody = z.input<typeof signupBody>;

export const queueRefSchema = z.object({ id: z.number(), name: z.string(), color: z.string() });

export const sessionCompanySchema = z.object({
  id: z.number(),
  name: z.string(),
  dueDate: z.string().nullable(),
  document: z.string().nullable(),
  companieSettings: z.record(z.string(), z.string()),
  plan: planSchema.nullable(),
});

/** The user as login, refresh and /auth/me answer it (API-CONTRACT "Auth"). */
export const sessionUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: z.enum(['admin', 'user']),
  super: z.boolean(),
  companyId: z.number(),
  whatsappId: z.number().nullable(),
  queues: z.array(queueRefSchema),
  startWork: z.string(),
  endWork: z.string(),
  /** null or 0: unlimited. */
  maxOpenTickets: z.number().nullable(),
  farewellMessage: z.string().nullable(),
  profileImage: z.string().nullable(),
  defaultTheme: z.enum(['light', 'dark']),
  defaultMenu: z.enum(['open', 'closed']),
  defaultTicketsManagerWidth: z.number().nullable(),
  allTicket: toggleSchema,
  allHistoric: toggleSchema,
  allUserChat: toggleSchema,
  userClosePendingTicket: toggleSchema,
  showDashboard: toggleSchema,
  allowGroup: z.boolean(),
  allowRealTime: toggleSchema,
  allowConnections: toggleSchema,
  online: z.boolean(),
  color: z.string().nullable(),
  company: sessionCompanySchema,
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const authResponseSchema = z.object({ token: z.string(), user: sessionUserSchema });
export type AuthResponse = z.infer<typeof authResponseSchema>;

/** Claims of the 15-minute access token. */
export interface AccessTokenClaims {
  id: number;
  profile: 'admin' | 'user';
  companyId: number;
}

export const signupResponseSchema = z.object({
  companyId: z.number(),
  userId: z.number(),
  dueDate: z.string(),
});
export type SignupResponse = z.infer<typeof signupResponseSchema>;
