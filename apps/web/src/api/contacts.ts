import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Contact, ContactEventPayload, UpdateContactBody } from '@balcao/contracts';
import { request } from './http';
import { useCompanyEvent } from './liveEvents';

export const contactKey = (id: number) => ['contacts', 'one', id] as const;

function storeContact(queryClient: QueryClient, contact: Contact): void {
  queryClient.setQueryData<Contact>(contactKey(contact.id), contact);
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
