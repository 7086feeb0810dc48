import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ContactList,
  ContactListBody,
  ContactListItem,
  ContactListItemPage,
  ContactListPage,
  ContactListUploadResult,
  CreateContactListItemBody,
  ListEventPayload,
} from '@balcao/contracts';
import { request } from '../../api/http';
import { listChange, useCompanyEvent } from '../../api/liveEvents';
import { storeRecordChange, type PagedList } from '../../api/pagedList';

const has = (text: string, search: string) => text.toLowerCase().includes(search.trim().toLowerCase());

/** `GET /contact-lists` and `company-{id}-ContactList`: the /contact-lists table. */
export const contactListsList: PagedList<ContactListPage, ContactList, ListEventPayload<ContactList>> = {
  key: ['contactLists', 'page'],
  path: (search, page) => `/contact-lists?searchParam=${encodeURIComponent(search)}&pageNumber=${page}`,
  records: { get: (p) => p.records, set: (p, records) => ({ ...p, records }) },
  matches: (list, search) => has(list.name, search),
  event: 'ContactList',
  change: listChange,
};

/** `GET /contact-list-items?contactListId=` and `company-{companyId}-ContactListItem`: one list's items. */
export const contactListItemsList = (listId: number): PagedList<ContactListItemPage, ContactListItem, ListEventPayload<ContactListItem>> => ({
  key: ['contactListItems', listId],
  path: (search, page) => `/contact-list-items?contactListId=${listId}&searchParam=${encodeURIComponent(search)}&pageNumber=${page}`,
  records: { get: (p) => p.contacts, set: (p, contacts) => ({ ...p, contacts }) },
  matches: (item, search) => item.contactListId === listId && (has(item.name, search) || has(item.number, search) || has(item.email, search)),
  event: 'ContactListItem',
  // An item of another list is no change to this one.
  change: (p) => (p.action !== 'delete' && p.record.contactListId !== listId ? { kind: 'delete', id: p.record.id } : listChange(p)),
});

export const contactListKey = (id: number) => ['contactLists', 'one', id] as const;

/** `GET /contact-lists/{id}` (the items screen's title); an import announces the list, and its items are read again. */
export function useContactList(id: number) {
  const queryClient = useQueryClient();
  useCompanyEvent<ListEventPayload<ContactList>>('ContactList', (p) => {
    if (p.action === 'delete' || p.record.id !== id) return;
    const before = queryClient.getQueryData<ContactList>(contactListKey(id));
    queryClient.setQueryData(contactListKey(id), p.record);
    if (before && before.contactsCount !== p.record.contactsCount) void queryClient.invalidateQueries({ queryKey: ['contactListItems', id] });
  });
  return useQuery({ queryKey: contactListKey(id), queryFn: ({ signal }) => request<ContactList>(`/contact-lists/${id}`, { signal }) });
}

/** `GET /contact-lists/list`: every list (the campaign modal's select). */
export function useAllContactLists() {
  return useQuery({ queryKey: ['contactLists', 'all'], queryFn: ({ signal }) => request<ContactList[]>('/contact-lists/list', { signal }) });
}

export function useSaveContactList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ContactListBody }) =>
      id === null ? request<ContactList>('/contact-lists', { method: 'POST', body }) : request<ContactList>(`/contact-lists/${id}`, { method: 'PUT', body }),
    onSuccess: (list) => storeRecordChange(queryClient, contactListsList, { kind: 'upsert', record: list }),
  });
}

export function useDeleteContactList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/contact-lists/${id}`, { method: 'DELETE' }),
    onSuccess: (_d, id) => storeRecordChange(queryClient, contactListsList, { kind: 'delete', id }),
  });
}

export function useSaveContactListItem(listId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CreateContactListItemBody }) =>
      id === null
        ? request<ContactListItem>('/contact-list-items', { method: 'POST', body })
        : request<ContactListItem>(`/contact-list-items/${id}`, { method: 'PUT', body }),
    onSuccess: (item) => storeRecordChange(queryClient, contactListItemsList(listId), { kind: 'upsert', record: item }),
  });
}

export function useDeleteContactListItem(listId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/contact-list-items/${id}`, { method: 'DELETE' }),
    onSuccess: (_d, id) => storeRecordChange(queryClient, contactListItemsList(listId), { kind: 'delete', id }),
  });
}

/** `POST /contact-lists/{id}/upload` (multipart `file`); the items are read again. */
export function useUploadContactList(listId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return request<ContactListUploadResult>(`/contact-lists/${listId}/upload`, { method: 'POST', body: form });
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['contactListItems', listId] }),
  });
}
