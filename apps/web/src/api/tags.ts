import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Contact, CreateTagBody, ListEventPayload, SyncTagsBody, Tag, TagPage, TagWithCount } from '@balcao/contracts';
import { request } from './http';
import { contactKey } from './contacts';
import { applyToList, listChange, useCompanyEvent } from './liveEvents';
import { storeRecordChange, type PagedList } from './pagedList';

export const tagsListKey = (kanban: 0 | 1) => ['tags', 'list', kanban] as const;

/** `GET /tags/list?kanban=` (a bare array): the tags offered for contacts (0) or the kanban lanes (1). */
export function useTagsList(kanban: 0 | 1 = 0) {
  return useQuery({
    queryKey: tagsListKey(kanban),
    queryFn: ({ signal }) => request<Tag[]>(`/tags/list?kanban=${kanban}`, { signal }),
  });
}

const byName = (a: Tag, b: Tag) => a.name.localeCompare(b.name) || a.id - b.id;

/** `company{id}-tag` (spec 2 §7): no dash after "company", so not a `companyEvent`. */
const tagEvent = (companyId: number) => `company${companyId}-tag`;

/** The cached bare lists (`/tags/list`) after a tag change: a tag whose kanban flag changed moves between them. */
function storeInTagLists(queryClient: ReturnType<typeof useQueryClient>, payload: ListEventPayload<Tag>): void {
  for (const kanban of [0, 1] as const) {
    queryClient.setQueryData<Tag[]>(tagsListKey(kanban), (list) => {
      if (payload.action !== 'delete' && payload.record.kanban !== kanban) return applyToList(list, { kind: 'delete', id: payload.record.id });
      return applyToList(list, listChange(payload), byName);
    });
  }
}

/** The cached tag lists take the created, renamed or deleted tag. */
export function useTagsLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent<ListEventPayload<Tag>>(tagEvent, (payload) => storeInTagLists(queryClient, payload));
}

/** A row of the tags pages: a tag from an event or a save has no counts until the page is read again. */
export type TagRow = Tag & Partial<Pick<TagWithCount, 'ticketTags' | 'contactTags'>>;

const tagPages = (kanban: 0 | 1): PagedList<TagPage, TagRow, ListEventPayload<Tag>> => ({
  key: ['tags', 'page', kanban],
  path: (search, page) => `/tags/?searchParam=${encodeURIComponent(search)}&pageNumber=${page}&kanban=${kanban}`,
  records: { get: (p) => p.tags, set: (p, tags) => ({ ...p, tags: tags as TagWithCount[] }) },
  // A tag moved to the other kind (kanban flag) leaves this list.
  matches: (tag, search) => tag.kanban === kanban && tag.name.toLowerCase().includes(search.trim().toLowerCase()),
  event: tagEvent,
  change: listChange,
});

/** `GET /tags/` (searchParam, pageNumber, kanban) and `company{id}-tag`: /tags (0) and /TagsKanban (1). */
export const tagsPages = { 0: tagPages(0), 1: tagPages(1) } as const;

/** `POST /tags` or `PUT /tags/{id}`: every cached tag list takes the answer at once. */
export function useSaveTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CreateTagBody }) =>
      id === null ? request<Tag>('/tags', { method: 'POST', body }) : request<Tag>(`/tags/${id}`, { method: 'PUT', body }),
    onSuccess: (tag, { id }) => {
      for (const list of Object.values(tagsPages)) storeRecordChange(queryClient, list, { kind: 'upsert', record: tag });
      storeInTagLists(queryClient, { action: id === null ? 'create' : 'update', record: tag });
    },
  });
}

export function useDeleteTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/tags/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => {
      for (const list of Object.values(tagsPages)) storeRecordChange(queryClient, list, { kind: 'delete', id });
      storeInTagLists(queryClient, { action: 'delete', id });
    },
  });
}

/**
 * `POST /tags/sync` `{contactId, tags}`: the contact's tags become exactly
 * this list, unknown names created; answers the contact.
 */
export function useSyncContactTags() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SyncTagsBody) => request<Contact>('/tags/sync', { method: 'POST', body }),
    onSuccess: async (contact, body) => {
      queryClient.setQueryData<Contact>(contactKey(contact.id), contact);
      // New names became tags: the lists learn them here even without the socket.
      if (body.tags.some((t) => t.id === undefined)) await queryClient.invalidateQueries({ queryKey: ['tags', 'list'] });
    },
  });
}
