import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ANNOUNCEMENT_EVENT, type Announcement, type ListEventPayload } from '@balcao/contracts';
import { publicFileUrl } from '../config';
import { request } from './http';
import { useCompanyEvent, type LiveEventName } from './liveEvents';

export const activeAnnouncementsKey = ['announcements', 'active'] as const;

/** `company-announcement`: one name for every company (announcements are platform-wide). */
export const announcementEvent: LiveEventName = () => ANNOUNCEMENT_EVENT;

/** The bell's order, as the server's: priority 1 first, then the newest. */
const byPriority = (a: Announcement, b: Announcement) => a.priority - b.priority || b.createdAt.localeCompare(a.createdAt) || b.id - a.id;

/** The active ones after a live change: an announcement switched off leaves the bell like a deleted one. */
function applyChange(list: Announcement[] | undefined, payload: ListEventPayload<Announcement>): Announcement[] | undefined {
  if (!list) return list;
  const others = list.filter((a) => a.id !== (payload.action === 'delete' ? payload.id : payload.record.id));
  return payload.action !== 'delete' && payload.record.status ? [...others, payload.record].sort(byPriority) : others;
}

/** `GET /announcements/list`, kept current by `company-announcement`: what the top-bar bell counts and shows. */
export function useActiveAnnouncements() {
  const queryClient = useQueryClient();
  useCompanyEvent<ListEventPayload<Announcement>>(announcementEvent, (payload) =>
    queryClient.setQueryData<Announcement[]>(activeAnnouncementsKey, (list) => applyChange(list, payload)),
  );
  return useQuery({
    queryKey: activeAnnouncementsKey,
    queryFn: ({ signal }) => request<Announcement[]>('/announcements/list', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** The image's public address (stored at the top of /public: announcements belong to no company). */
export const announcementImageUrl = (a: Pick<Announcement, 'mediaPath'>) => (a.mediaPath ? publicFileUrl(a.mediaPath) : null);

/** What shows when an image fails to load (spec 3 §2). */
export const ANNOUNCEMENT_PLACEHOLDER = publicFileUrl('app/noimage.png');

/** Priority colours (spec 1 §9, 3 §9): 1 red, 2 orange, 3 grey. */
export const PRIORITY_COLORS: Record<number, string> = { 1: '#d32f2f', 2: '#ed6c02', 3: '#757575' };
