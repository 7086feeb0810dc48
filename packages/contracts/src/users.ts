import { z } from 'zod';
import { sessionUserSchema } from './auth.js';
import { toggleSchema } from './settings.js';

/** HH:MM, 00:00–23:59 (work hours of a user). */
export const hhmmSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:MM');

/** A user as the users endpoints and the `company-{id}-user` event carry it (the session user without its company). */
export const userSchema = sessionUserSchema.omit({ company: true });
export type User = z.infer<typeof userSchema>;

/** `POST /users`: the user is always created in the caller's company. */
export const createUserBody = z.object({
  name: z.string().trim().min(2).max(50),
  email: z.string().trim().toLowerCase().pipe(z.email().max(120)),
  password: z.string().min(5).max(50),
  profile: z.enum(['admin', 'user']).default('user'),
  queueIds: z.array(z.number().int().positive()).max(200).optional().default([]),
  startWork: hhmmSchema.optional(),
  endWork: hhmmSchema.optional(),
  farewellMessage: z.string().max(1000).nullable().optional(),
  color: z.string().max(20).nullable().optional(),
  allowGroup: z.boolean().optional(),
  showDashboard: toggleSchema.optional(),
  allowRealTime: toggleSchema.optional(),
  allowConnections: toggleSchema.optional(),
  allTicket: toggleSchema.optional(),
  allHistoric: toggleSchema.optional(),
  allUserChat: toggleSchema.optional(),
  userClosePendingTicket: toggleSchema.optional(),
  defaultMenu: z.enum(['open', 'closed']).optional(),
  defaultTheme: z.enum(['light', 'dark']).optional(),
});
export type CreateUserBody = z.input<typeof createUserBody>;
