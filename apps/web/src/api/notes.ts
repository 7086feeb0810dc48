import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateTicketNoteBody, TicketNote } from '@balcao/contracts';
import { request } from './http';

export const notesKey = (ticketId: number, contactId: number) => ['ticket-notes', ticketId, contactId] as const;

/** Newest first, whatever order the server sent. */
export function newestFirst(a: TicketNote, b: TicketNote): number {
  return b.createdAt.localeCompare(a.createdAt) || b.id - a.id;
}

/** `GET /ticket-notes/list?ticketId=&contactId=` (a bare array), newest first. */
export function useTicketNotes(ticketId: number, contactId: number) {
  return useQuery({
    queryKey: notesKey(ticketId, contactId),
    queryFn: ({ signal }) =>
      request<TicketNote[]>(`/ticket-notes/list?ticketId=${ticketId}&contactId=${contactId}`, { signal }),
    select: (notes) => [...notes].sort(newestFirst),
  });
}

/** `POST /ticket-notes` `{note, ticketId, contactId}`. */
export function useAddNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTicketNoteBody) => request<TicketNote>('/ticket-notes', { method: 'POST', body }),
    onSuccess: (_note, body) => queryClient.invalidateQueries({ queryKey: notesKey(Number(body.ticketId), Number(body.contactId)) }),
  });
}

/** `DELETE /ticket-notes/{id}`. */
export function useDeleteNote(ticketId: number, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/ticket-notes/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) =>
      queryClient.setQueryData<TicketNote[]>(notesKey(ticketId, contactId), (list) => list?.filter((n) => n.id !== id)),
  });
}
