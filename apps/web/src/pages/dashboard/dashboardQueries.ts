import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DashboardResponse, MessagesAllMeResponse, TicketsDayResponse, TicketsUsersResponse } from '@balcao/contracts';
import { request } from '../../api/http';
import { isoDay } from './dates';

export interface DayRange {
  from: string;
  to: string;
}

/** `GET /dashboard` for the range (no request without both dates: the page shows 'Parametrize o filtro'). */
export function useDashboard(range: DayRange) {
  return useQuery({
    queryKey: ['dashboard', range],
    queryFn: ({ signal }) => request<DashboardResponse>(`/dashboard?date_from=${range.from}&date_to=${range.to}`, { signal }),
    enabled: Boolean(range.from && range.to),
    placeholderData: keepPreviousData,
  });
}

/** Messages received and sent in the range and today (the cards show "period / today"). */
export function useMessageCounts(range: DayRange) {
  const count = (fromMe: boolean, from: string, to: string) =>
    request<MessagesAllMeResponse>(`/messages-allMe?fromMe=${fromMe}&dateStart=${from}&dateEnd=${to}`).then((r) => r.count[0]?.count ?? 0);
  return useQuery({
    queryKey: ['dashboard', 'messages', range],
    queryFn: async () => {
      const today = isoDay(new Date());
      const [received, sent, receivedToday, sentToday] = await Promise.all([
        count(false, range.from, range.to),
        count(true, range.from, range.to),
        count(false, today, today),
        count(true, today, today),
      ]);
      return { received, sent, receivedToday, sentToday };
    },
    enabled: Boolean(range.from && range.to),
    placeholderData: keepPreviousData,
  });
}

export function useTicketsPerUser(range: DayRange) {
  return useQuery({
    queryKey: ['dashboard', 'ticketsUsers', range],
    queryFn: ({ signal }) => request<TicketsUsersResponse>(`/dashboard/ticketsUsers?initialDate=${range.from}&finalDate=${range.to}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useTicketsPerDay(range: DayRange) {
  return useQuery({
    queryKey: ['dashboard', 'ticketsDay', range],
    queryFn: ({ signal }) => request<TicketsDayResponse>(`/dashboard/ticketsDay?initialDate=${range.from}&finalDate=${range.to}`, { signal }),
    placeholderData: keepPreviousData,
  });
}
