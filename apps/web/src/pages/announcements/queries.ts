import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Announcement, AnnouncementsPage, CreateAnnouncementBody, ListEventPayload } from '@balcao/contracts';
import { activeAnnouncementsKey, announcementEvent } from '../../api/announcements';
import { request } from '../../api/http';
import { listChange } from '../../api/liveEvents';
import { storeRecordChange, type PagedList } from '../../api/pagedList';

/** `GET /announcements` (searchParam, pageNumber) and `company-announcement`: the /announcements table. */
export const announcementsList: PagedList<AnnouncementsPage, Announcement, ListEventPayload<Announcement>> = {
  key: ['announcements', 'page'],
  path: (search, page) => `/announcements?searchParam=${encodeURIComponent(search)}&pageNumber=${page}`,
  records: { get: (p) => p.records, set: (p, records) => ({ ...p, records }) },
  matches: (a, search) => {
    const s = search.trim().toLowerCase();
    return a.title.toLowerCase().includes(s) || a.text.toLowerCase().includes(s);
  },
  event: announcementEvent,
  change: listChange,
  // The super user's own bell reads the active ones.
  alsoStore: (queryClient) => void queryClient.invalidateQueries({ queryKey: activeAnnouncementsKey }),
};

const store = (queryClient: QueryClient, a: Announcement) => storeRecordChange(queryClient, announcementsList, { kind: 'upsert', record: a });

/** Saves the modal: the announcement, then its image — a new one uploaded (multipart `file`), a removed one deleted. */
export function useSaveAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body, file, removeMedia }: { id: number | null; body: CreateAnnouncementBody; file: File | null; removeMedia: boolean }) => {
      let saved =
        id === null
          ? await request<Announcement>('/announcements', { method: 'POST', body })
          : await request<Announcement>(`/announcements/${id}`, { method: 'PUT', body });
      store(queryClient, saved);
      if (file) {
        const form = new FormData();
        form.append('typeArch', 'announcements');
        form.append('file', file);
        saved = await request<Announcement>(`/announcements/${saved.id}/media-upload`, { method: 'POST', body: form });
      } else if (removeMedia && saved.mediaPath) {
        saved = await request<Announcement>(`/announcements/${saved.id}/media-upload`, { method: 'DELETE' });
      }
      return saved;
    },
    onSuccess: (saved) => store(queryClient, saved),
  });
}

export function useDeleteAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/announcements/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => storeRecordChange(queryClient, announcementsList, { kind: 'delete', id }),
  });
}
