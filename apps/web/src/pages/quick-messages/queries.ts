import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CreateQuickMessageBody, ListEventPayload, QuickMessage, QuickMessagePage } from '@balcao/contracts';
import { request } from '../../api/http';
import { listChange } from '../../api/liveEvents';
import { storeRecordChange, type PagedList } from '../../api/pagedList';
import { conversationKeys } from '../tickets/conversation/conversationQueries';

/** `GET /quick-messages` (searchParam, pageNumber) and `company-{companyId}-quickemessage`: the /quick-messages table. */
export const quickMessagesList: PagedList<QuickMessagePage, QuickMessage, ListEventPayload<QuickMessage>> = {
  key: ['quickMessages', 'page'],
  path: (search, page) => `/quick-messages?searchParam=${encodeURIComponent(search)}&pageNumber=${page}`,
  records: { get: (p) => p.records, set: (p, records) => ({ ...p, records }) },
  matches: (q, search) => {
    const s = search.trim().toLowerCase();
    return q.shortcode.toLowerCase().includes(s) || q.message.toLowerCase().includes(s);
  },
  event: 'quickemessage',
  change: listChange,
  // The composer's '/' list is another read of the same replies.
  alsoStore: (queryClient) => void queryClient.invalidateQueries({ queryKey: conversationKeys.quickMessages }),
};

const store = (queryClient: QueryClient, q: QuickMessage) => storeRecordChange(queryClient, quickMessagesList, { kind: 'upsert', record: q });

/**
 * Saves the modal: the reply itself, then its attachment — a new file is uploaded
 * (`POST …/media-upload`, multipart `file`), a removed one deleted.
 */
export function useSaveQuickMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body, file, removeMedia }: { id: number | null; body: CreateQuickMessageBody; file: File | null; removeMedia: boolean }) => {
      let saved =
        id === null
          ? await request<QuickMessage>('/quick-messages', { method: 'POST', body })
          : await request<QuickMessage>(`/quick-messages/${id}`, { method: 'PUT', body });
      store(queryClient, saved);
      if (file) {
        const form = new FormData();
        form.append('typeArch', 'quickMessage');
        form.append('file', file);
        saved = await request<QuickMessage>(`/quick-messages/${saved.id}/media-upload`, { method: 'POST', body: form });
      } else if (removeMedia && saved.isMedia) {
        saved = await request<QuickMessage>(`/quick-messages/${saved.id}/media-upload`, { method: 'DELETE' });
      }
      return saved;
    },
    onSuccess: (saved) => store(queryClient, saved),
  });
}

export function useDeleteQuickMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/quick-messages/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => storeRecordChange(queryClient, quickMessagesList, { kind: 'delete', id }),
  });
}
