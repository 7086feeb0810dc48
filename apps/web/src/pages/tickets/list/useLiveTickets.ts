import { useQueryClient } from '@tanstack/react-query';
import type { AppMessageEventPayload, ContactEventPayload, TicketEventPayload } from '@balcao/contracts';
import { ticketsKeys } from './ticketQueries';
import { useCompanyEvent } from '../../../api/liveEvents';
import { applyTicketListEvent, type ListFilters, type ListViewer, type TicketListEvent, type TicketPages } from './listModel';

function toListEvent(payload: TicketEventPayload): TicketListEvent | null {
  switch (payload.action) {
    case 'update':
      return payload.ticket ? { kind: 'update', ticket: payload.ticket } : null;
    case 'delete':
      return { kind: 'delete', ticketId: payload.ticketId };
    case 'updateUnread':
      return { kind: 'readAll', ticketId: payload.ticketId };
    default:
      return null;
  }
}

/**
 * Keeps every cached inbox list current from `company-{id}-ticket`,
 * `company-{id}-appMessage` and `company-{id}-contact` (ARCHITECTURE §6: apply to the cache, do not refetch).
 */
export function useLiveTickets(viewer: ListViewer): void {
  const queryClient = useQueryClient();
  const apply = (event: TicketListEvent) => {
    for (const [key, data] of queryClient.getQueriesData<TicketPages>({ queryKey: ticketsKeys.lists })) {
      const filters = key[2] as ListFilters | undefined;
      if (!filters || !data) continue;
      const next = applyTicketListEvent(data, event, filters, viewer);
      if (next !== data) queryClient.setQueryData(key, next);
    }
  };
  useCompanyEvent<TicketEventPayload>('ticket', (payload) => {
    const event = toListEvent(payload);
    if (event) apply(event);
  });
  useCompanyEvent<AppMessageEventPayload>('appMessage', (payload) => {
    if (payload.action !== 'create' || !payload.ticket) return;
    apply({ kind: 'message', ticket: payload.ticket, message: payload.message });
  });
  useCompanyEvent<ContactEventPayload>('contact', (payload) => {
    if (payload.action === 'update' && payload.contact) apply({ kind: 'contact', contact: payload.contact });
  });
}
