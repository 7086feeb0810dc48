import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Contact, ContactEventPayload, ContactImportResult, CreateContactBody, PhoneImportResult, UpdateContactBody } from '@balcao/contracts';
import { apiUrl } from '../config';
import { ApiError, request } from './http';
import { useCompanyEvent } from './liveEvents';
import { storeRecordChange, type PagedList, type RecordChange } from './pagedList';
import { getToken } from './storage';

export const contactKey = (id: number) => ['contacts', 'one', id] as const;

type ContactsPage = { contacts: Contact[]; count: number; hasMore: boolean };

const contactChange = (payload: ContactEventPayload): RecordChange<Contact> =>
  payload.action === 'delete' ? { kind: 'delete', id: payload.contactId } : { kind: 'upsert', record: payload.contact };

/**
 * `GET /contacts` for the contacts page: the search and the tag filter (`contactTag`, a JSON
 * list of ids: contacts holding any of them) are both part of the cached list's key.
 */
export function contactsList(tagIds: number[]): PagedList<ContactsPage, Contact, ContactEventPayload> {
  const tagParam = tagIds.length > 0 ? `&contactTag=${encodeURIComponent(JSON.stringify(tagIds))}` : '';
  return {
    key: ['contacts', 'page', tagIds.join(',')],
    path: (search, page) => `/contacts?searchParam=${encodeURIComponent(search)}&pageNumber=${page}${tagParam}`,
    records: { get: (p) => p.contacts, set: (p, contacts) => ({ ...p, contacts }) },
    matches: (contact, search) =>
      (tagIds.length === 0 || contact.tags.some((tag) => tagIds.includes(tag.id))) &&
      [contact.name, contact.number, contact.email ?? ''].some((field) => field.toLowerCase().includes(search)),
    event: 'contact',
    change: contactChange,
  };
}

/** Every cached page of the contacts page, whatever its filter, and the contact itself. */
function storeContact(queryClient: QueryClient, contact: Contact): void {
  queryClient.setQueryData<Contact>(contactKey(contact.id), contact);
  storeInPages(queryClient, { kind: 'upsert', record: contact });
}

function storeInPages(queryClient: QueryClient, change: RecordChange<Contact>): void {
  const filters = new Set(queryClient.getQueriesData({ queryKey: ['contacts', 'page'] }).map(([key]) => String(key[2] ?? '')));
  for (const tagKey of filters) storeRecordChange(queryClient, contactsList(tagKey ? tagKey.split(',').map(Number) : []), change);
}

/** `POST /contacts`. */
export function useCreateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateContactBody) => request<Contact>('/contacts', { method: 'POST', body }),
    onSuccess: (contact) => storeContact(queryClient, contact),
  });
}

/** `DELETE /contacts/{id}` (contacts-page:deleteContact). */
export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request<unknown>(`/contacts/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => storeInPages(queryClient, { kind: 'delete', id }),
  });
}

/**
 * `POST /contacts/upload`: the spreadsheet with its column mapping and the chosen rows;
 * answers the created/updated/ignored counts (progress arrives on `company-{id}-contactImport`).
 */
export function uploadContacts(file: Blob, fileName: string, mapping: (string | null)[], rows: number[]): Promise<ContactImportResult> {
  const form = new FormData();
  form.append('mapping', JSON.stringify(mapping));
  form.append('rows', JSON.stringify(rows));
  form.append('file', file, fileName);
  return request<ContactImportResult>('/contacts/upload', { method: 'POST', body: form });
}

/** What of the connected phone becomes contacts: its address book (`POST /contacts/import`) or its chats (`POST /contacts/import/chats`). */
export type PhoneSource = 'contacts' | 'chats';

/** Imports from the connected phone; the contacts page reloads. */
export function useImportFromPhone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (source: PhoneSource) => request<PhoneImportResult>(source === 'chats' ? '/contacts/import/chats' : '/contacts/import', { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['contacts', 'page'] }),
  });
}

/** `GET /contacts/export`: the .xlsx as a file to save (the shared client reads JSON only). */
export async function downloadContactsExport(): Promise<Blob> {
  const token = getToken();
  const res = await fetch(`${apiUrl()}/contacts/export`, { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'include' });
  if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
  return res.blob();
}

/** `GET /contacts/{id}`: the full contact (extra info, tags); `placeholder` (e.g. the ticket's copy) shows meanwhile. */
export function useContact(id: number | null, placeholder?: Contact) {
  return useQuery({
    queryKey: contactKey(id ?? 0),
    queryFn: ({ signal }) => request<Contact>(`/contacts/${id}`, { signal }),
    enabled: id !== null,
    placeholderData: placeholder,
  });
}

/** `company-{id}-contact` events for one contact: edits by other attendants show at once. */
export function useContactLive(id: number, enabled = true): void {
  const queryClient = useQueryClient();
  useCompanyEvent<ContactEventPayload>(
    'contact',
    (payload) => {
      if (payload.action === 'delete' || payload.contact.id !== id) return;
      storeContact(queryClient, payload.contact);
    },
    enabled,
  );
}

/** `PUT /contacts/{id}`. */
export function useUpdateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateContactBody }) => request<Contact>(`/contacts/${id}`, { method: 'PUT', body }),
    onSuccess: (contact) => storeContact(queryClient, contact),
  });
}

/** `PUT /contacts/toggleAcceptAudio/{id}`: the contact with `acceptAudioMessage` flipped. */
export function useToggleAcceptAudio() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request<Contact>(`/contacts/toggleAcceptAudio/${id}`, { method: 'PUT' }),
    onSuccess: (contact) => storeContact(queryClient, contact),
  });
}

/** `PUT /contacts/block/{id}` `{active}`: false blocks, true unblocks (spec 2 §4). */
export function useBlockContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) =>
      request<Contact>(`/contacts/block/${id}`, { method: 'PUT', body: { active } }),
    onSuccess: (contact) => storeContact(queryClient, contact),
  });
}
