import { z } from 'zod';
import { requiredText } from './validation.js';

/** Priorities of an announcement (spec 3 §3, §9): 1 high, 2 medium, 3 low. */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
export type AnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];

/**
 * A platform-wide announcement (spec 3 §3) the super user publishes and every user reads in the
 * top-bar bell. `mediaPath` is the stored image's file name under /public, `mediaName` its original name.
 */
export const announcementSchema = z.object({
  id: z.number(),
  title: z.string(),
  text: z.string(),
  priority: z.number().int(),
  status: z.boolean(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Announcement = z.infer<typeof announcementSchema>;

const priorityField = z.coerce
  .number()
  .int()
  .refine((p) => (ANNOUNCEMENT_PRIORITIES as readonly number[]).includes(p), 'one of 1, 2, 3');

const announcementFields = z.object({
  title: requiredText(1, 200),
  text: requiredText(1, 10_000),
  priority: priorityField.default(3),
  status: z.boolean().default(true),
});

export const createAnnouncementBody = announcementFields;
export type CreateAnnouncementBody = z.input<typeof createAnnouncementBody>;
export const updateAnnouncementBody = z.object({
  title: requiredText(1, 200).optional(),
  text: requiredText(1, 10_000).optional(),
  priority: priorityField.optional(),
  status: z.boolean().optional(),
});
export type UpdateAnnouncementBody = z.input<typeof updateAnnouncementBody>;

/** `GET /announcements` (searchParam, pageNumber). */
export const announcementsPageSchema = z.object({ records: z.array(announcementSchema), count: z.number(), hasMore: z.boolean() });
export type AnnouncementsPage = z.infer<typeof announcementsPageSchema>;

/** The socket event every logged-in user hears (spec 3 §7): not per company, announcements are platform-wide. */
export const ANNOUNCEMENT_EVENT = 'company-announcement';
