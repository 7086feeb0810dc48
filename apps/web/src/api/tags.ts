import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Contact, ListEventPayload, SyncTagsBody, Tag } from '@balcao/contracts';
import { request } from './http';
import { contactKey } from './contacts';
import { applyToList, listChange } from './liveEvents';
import { useSession } from './session';

export const tagsListKey = (kanban: 0 | 1) => ['tags', 'list', kanban] as const;

/** `GET /tags/list?kanban=` (a bare array): the tags offered for contacts (0) or the kanban lanes (1). */
export function useTagsList(kanban: 0 | 1 = 0) {
  return useQuery({
    queryKey: tagsListKey(kanban),
    queryFn: ({ signal }) => request<Tag[]>(`/tags/list?kanban=${kanban}`, { signal }),
  });
}

const byName = (a: Tag, b: Tag) => a.name.localeCompare(b.name) || a.id - b.id;

/**
 * `company{id}-tag` (spec 2 §7; no dash after "company", so not a `companyEvent`):
 * the cached tag lists take the created, renamed or deleted tag.
 */
export function useTagsLive(): void {
  const queryClient = useQueryClient();
  const { socket, user } = useSession();
  const companyId = user?.companyId;
  useEffect(() => {
    if (!socket || companyId === undefined) return;
    const event = `company${companyId}-tag`;
    const listener = (payload: ListEventPayload<Tag>) => {
      for (const kanban of [0, 1] as const) {
        queryClient.setQueryData<Tag[]>(tagsListKey(kanban), (list) => {
          if (payload.action !== 'delete' && payload.record.kanban !== kanban) return applyToList(list, { kind: 'delete', id: payload.record.id });
          return applyToList(list, listChange(payload), byName);
        });
      }
    };
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, companyId, queryClient]);
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
