import { z } from 'zod';
import { sessionUserSchema } from './auth.js';
import { looseFlag, looseId, looseToggle, optionalId } from './lenient.js';
import { emailField, optionalText, passwordField, requiredText } from './validation.js';

/** HH:MM, 00:00–23:59 (work hours of a user). */
export const hhmmSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:MM');

/** A user as the users endpoints and the `company-{id}-user` event carry it (the session user without its company). */
export const userSchema = sessionUserSchema.omit({ company: true });
export type User = z.infer<typeof userSchema>;

/** Fields only an admin may set (spec 3 §6: profile, connection, work hours, Permissions tab, queues). */
export const ADMIN_ONLY_USER_FIELDS = [
  'profile',
  'whatsappId',
  'queueIds',
  'startWork',
  'endWork',
  'maxOpenTickets',
  'allTicket',
  'allowGroup',
  'allHistoric',
  'allUserChat',
  'showDashboard',
  'userClosePendingTicket',
  'allowConnections',
  'allowRealTime',
] as const;

/** The most tickets automatic assignment gives one attendant (docs/chatbots.md, "Capacity"). */
export const MAX_OPEN_TICKETS_LIMIT = 999;

/** A capacity: 0–999, also as its digits; `""` and `null` mean unlimited (as 0 does). */
const maxOpenTicketsField = z.preprocess(
  (v: number | string | null) => (v === '' ? null : v),
  z.coerce.number<number | string>().int().min(0).max(MAX_OPEN_TICKETS_LIMIT).nullable(),
);

/** The user dialog (General and Permissions tabs, spec 3 §2, §5); clients' loose values are normalised (lenient.ts). */
const userFields = z.object({
  name: requiredText(2, 50),
  email: emailField,
  password: passwordField,
  profile: z.enum(['admin', 'user']),
  whatsappId: optionalId,
  queueIds: z.array(looseId).max(200),
  startWork: hhmmSchema,
  endWork: hhmmSchema,
  maxOpenTickets: maxOpenTicketsField,
  farewellMessage: optionalText(1000),
  color: z.string().max(20).nullable(),
  defaultMenu: z.enum(['open', 'closed']),
  defaultTheme: z.enum(['light', 'dark']),
  allowGroup: looseFlag(false),
  showDashboard: looseToggle('disabled'),
  allowRealTime: looseToggle('disabled'),
  allowConnections: looseToggle('disabled'),
  allTicket: looseToggle('disabled'),
  allHistoric: looseToggle('disabled'),
  allUserChat: looseToggle('disabled'),
  userClosePendingTicket: looseToggle('enabled'),
});

/** `POST /users`: always in the caller's company (a `companyId` or `super` sent is ignored). */
export const createUserBody = userFields.partial().extend({
  name: userFields.shape.name,
  email: userFields.shape.email,
  password: userFields.shape.password,
  profile: userFields.shape.profile.default('user'),
  queueIds: userFields.shape.queueIds.optional().default([]),
});
export type CreateUserBody = z.input<typeof createUserBody>;

/** `PUT /users/{id}`: a partial update; an empty password means "unchanged". */
export const updateUserBody = userFields.partial().extend({
  password: z.preprocess((v) => (v === '' || v === null ? undefined : v), passwordField.optional()),
});
export type UpdateUserBody = z.input<typeof updateUserBody>;

/** `GET /users/` (searchParam, pageNumber). */
export const usersPageSchema = z.object({ users: z.array(userSchema), count: z.number(), hasMore: z.boolean() });
export type UsersPage = z.infer<typeof usersPageSchema>;

/** `PUT /users/toggleChangeWidht/{userId}`: the tickets panel width in px. */
export const ticketsManagerWidthBody = z.object({ defaultTicketsManagerWidth: z.coerce.number().int().min(404).max(700) });
export type TicketsManagerWidthBody = z.input<typeof ticketsManagerWidthBody>;

/** `POST /users/{id}/media-upload` answers the updated user. */
export const avatarUploadResponseSchema = z.object({ user: userSchema });
